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
        @DefaultValue("10m") Duration tableActive) {
}
