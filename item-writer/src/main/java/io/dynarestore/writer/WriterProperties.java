package io.dynarestore.writer;

import io.dynarestore.boot.ServiceSettings;
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
 *                         (waits for an open circuit breaker do not count)
 * @param budget           write budgets per destination table
 * @param resilience       circuit breakers
 */
@ConfigurationProperties("writer")
public record WriterProperties(
        AwsSettings aws,
        TopicDefinitions topics,
        @DefaultValue("item-writer") String group,
        @DefaultValue("4") int consumers,
        @DefaultValue("2s") Duration progressInterval,
        @DefaultValue Retry retry,
        @DefaultValue("5") int segmentAttempts,
        @DefaultValue Budget budget,
        @DefaultValue Resilience resilience)
        implements ServiceSettings {

    /**
     * The write budget of a destination table, split across replicas by their share of the
     * segment partitions (ADR 0011).
     *
     * @param provisionedShare    share of a provisioned table's WCU restores may use
     * @param onDemandTarget      WCU per second aimed at for an on-demand table
     * @param onDemandInitialPeak what an on-demand table takes at once; doubled every 30 minutes up to the target
     * @param batchShare          the most one batch may cost, as a share of a second's rate
     * @param throttleFloor       the lowest share of the budget throttling can bring the rate down to
     * @param recoveryStep        the share of the budget each second without throttling adds back
     * @param refresh             how often a table's capacity is read again
     * @param lagInterval         how often the group's lag is read to split budgets across replicas
     */
    public record Budget(
            @DefaultValue("0.8") double provisionedShare,
            @DefaultValue("4000") long onDemandTarget,
            @DefaultValue("4000") long onDemandInitialPeak,
            @DefaultValue("0.1") double batchShare,
            @DefaultValue("0.02") double throttleFloor,
            @DefaultValue("0.05") double recoveryStep,
            @DefaultValue("30s") Duration refresh,
            @DefaultValue("500ms") Duration lagInterval) {}

    /**
     * Circuit breakers per destination table and for S3.
     *
     * @param openWait  how long a breaker stays open before one call probes the service again
     * @param maxOutage how long a segment waits for an unavailable service before it fails over to retries
     * @param sdkAttempts attempts the AWS SDK makes itself per DynamoDB call (the writer retries, paced, on top)
     */
    public record Resilience(
            @DefaultValue("5s") Duration openWait,
            @DefaultValue("10m") Duration maxOutage,
            @DefaultValue("2") int sdkAttempts) {}

    /**
     * Exponential backoff with full jitter: attempt {@code n} waits a random time up to
     * {@code min(maxDelay, baseDelay * 2^n)}.
     *
     * @param maxAttempts tries of one batch that DynamoDB throttles or fails before the segment is given up for now
     * @param baseDelay   the first backoff
     * @param maxDelay    the longest backoff
     */
    public record Retry(
            @DefaultValue("10") int maxAttempts,
            @DefaultValue("50ms") Duration baseDelay,
            @DefaultValue("5s") Duration maxDelay) {}
}
