package io.dynarestore.writer;

import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.kafka.TopicDefinitions;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of item-writer, under {@code writer}.
 *
 * @param aws              accounts, regions, endpoints and the vault's S3
 * @param topics           replication and partition counts of the topics it may create
 * @param group            its consumer group (all replicas share it)
 * @param consumers        segments written at once by one replica (one Kafka consumer each)
 * @param progressInterval how often a segment's progress is reported
 * @param retry            retries of one batch: UnprocessedItems, throttling, transient errors
 * @param segmentAttempts  times a segment is started over after transient failures before it fails
 */
@ConfigurationProperties("writer")
public record WriterProperties(
        AwsSettings aws,
        TopicDefinitions topics,
        @DefaultValue("item-writer") String group,
        @DefaultValue("4") int consumers,
        @DefaultValue("2s") Duration progressInterval,
        @DefaultValue Retry retry,
        @DefaultValue("5") int segmentAttempts) {

    /**
     * Exponential backoff with full jitter: attempt {@code n} waits a random time up to
     * {@code min(maxDelay, baseDelay * 2^n)}.
     */
    public record Retry(@DefaultValue("10") int maxAttempts, @DefaultValue("50ms") Duration baseDelay,
                        @DefaultValue("5s") Duration maxDelay) {
    }
}
