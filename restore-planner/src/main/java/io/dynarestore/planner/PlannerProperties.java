package io.dynarestore.planner;

import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of restore-planner, under {@code planner}.
 *
 * @param aws         accounts, regions, endpoints and the vault's S3
 * @param vault       the bucket and root prefix of the vault
 * @param topics      replication and partition counts of the topics it creates
 * @param group       its consumer group
 * @param workers     threads that carry out plan steps (table creation, dispatch)
 * @param tableActive how long a created table may take to become ACTIVE
 */
@ConfigurationProperties("planner")
public record PlannerProperties(
        AwsSettings aws,
        VaultSettings vault,
        TopicDefinitions topics,
        @DefaultValue("restore-planner") String group,
        @DefaultValue("4") int workers,
        @DefaultValue("10m") Duration tableActive,
        @DefaultValue Pitr pitr) {

    /**
     * Point-in-time restores.
     *
     * @param deltaMemory    memory for computing the delta: one bucket of changes is held at a time
     * @param skipKeysLimit  most changed keys writers hold as a skip set (16 bytes each); beyond it
     *                       the base is written first and the delta after it (ADR 0006)
     * @param linesPerFile   lines per staged delta file (one delta segment each)
     */
    public record Pitr(@DefaultValue("64MB") org.springframework.util.unit.DataSize deltaMemory,
                       @DefaultValue("4000000") long skipKeysLimit,
                       @DefaultValue("10000") int linesPerFile) {
    }
}
