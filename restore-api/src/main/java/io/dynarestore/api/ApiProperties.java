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
 * @param links          passcode-protected email links to granular-recovery files
 * @param events         Server-Sent Event streams of restores
 */
@ConfigurationProperties("api")
public record ApiProperties(
        AwsSettings aws,
        VaultSettings vault,
        TopicDefinitions topics,
        @DefaultValue("5s") Duration verdictTimeout,
        @DefaultValue Links links,
        @DefaultValue Events events) {

    /**
     * Event streams.
     *
     * @param maxStreams  streams one replica serves at a time (each holds a Kafka consumer)
     * @param maxDuration longest life of one stream; a client reconnects with Last-Event-ID
     * @param heartbeat   comment sent when nothing else was, so that proxies keep the stream open
     */
    public record Events(@DefaultValue("200") int maxStreams, @DefaultValue("1h") Duration maxDuration,
                         @DefaultValue("15s") Duration heartbeat) {
    }

    /**
     * Email links.
     *
     * @param expiry   how long a link opens the file after it is issued; shorter than the retention
     *                 of {@code restore.links}, which holds its tries
     * @param maxTries wrong passcodes after which a link locks
     * @param logWait  how long a try waits to read itself back from {@code restore.links}
     */
    public record Links(@DefaultValue("7d") Duration expiry, @DefaultValue("5") int maxTries,
                        @DefaultValue("10s") Duration logWait) {
        public Links {
            if (expiry.isNegative() || expiry.isZero()
                    || expiry.compareTo(io.dynarestore.contracts.Topic.LINKS_RETENTION.minusDays(1)) > 0) {
                throw new IllegalArgumentException("api.links.expiry is " + expiry + "; it must be positive and "
                        + "at most " + io.dynarestore.contracts.Topic.LINKS_RETENTION.minusDays(1).toDays()
                        + " days, so that restore.links still holds a link's tries when it expires");
            }
            if (maxTries < 1) {
                throw new IllegalArgumentException("api.links.max-tries must be at least 1, not " + maxTries);
            }
        }
    }
}
