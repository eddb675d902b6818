package io.dynarestore.api;

import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of restore-api, under {@code api}.
 *
 * @param aws            accounts, regions, endpoints and the vault's S3
 * @param vault          the bucket and root prefix of the vault
 * @param topics         replication and partition counts of the topics it may create
 * @param verdictTimeout how long {@code POST /restores} waits for the planner's first answer
 */
@ConfigurationProperties("api")
public record ApiProperties(
        AwsSettings aws,
        VaultSettings vault,
        TopicDefinitions topics,
        @DefaultValue("5s") Duration verdictTimeout) {
}
