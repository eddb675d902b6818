package io.dynarestore.protector;

import io.dynarestore.boot.VaultReaderSettings;
import io.dynarestore.contracts.access.MessageSignature;
import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the protector, under {@code protector}.
 *
 * @param aws       accounts, regions, endpoints and the vault's S3
 * @param vault     the vault's bucket and root
 * @param topics    replication and partition counts of the topics it may create
 * @param group     the consumer group its replicas share the tables in
 * @param capture   the change-log capture
 * @param backups   full backups
 * @param retention expiry
 * @param exports   DynamoDB's own exports (NATIVE_EXPORT backups, NATIVE_INCREMENTAL change logs)
 * @param signingKey the key that proves the protector as the publisher of its drills' requests on
 *                   {@code restore.requests}; the planner holds it as {@code planner.access.keys.protector}
 *                   (at least 32 characters; empty: unsigned, which only a planner that lets unidentified
 *                   publishers restore takes)
 */
@ConfigurationProperties("protector")
public record ProtectorProperties(
        AwsSettings aws,
        VaultSettings vault,
        TopicDefinitions topics,
        @DefaultValue("protector") String group,
        @DefaultValue Capture capture,
        @DefaultValue Backups backups,
        @DefaultValue Retention retention,
        @DefaultValue Exports exports,
        String signingKey)
        implements VaultReaderSettings {

    public ProtectorProperties {
        signingKey = signingKey == null || signingKey.isBlank() ? null : signingKey;
        String weak = MessageSignature.weakness(signingKey);
        if (signingKey != null && weak != null) {
            throw new IllegalArgumentException("protector.signing-key " + weak + "; set it (env PROTECTOR_SIGNING_KEY)"
                    + " to a random secret of at least " + MessageSignature.MIN_KEY_LENGTH
                    + " characters, and give the planner the same as planner.access.keys.protector");
        }
    }

    /**
     * @param pollInterval the pause between two reads of a table's stream
     * @param settle       how long a write may take to appear in its stream: a flush closes no second younger than it
     * @param maxBuffered  writes a table's capture holds before it flushes early; reading pauses while it holds
     *                     that many and a flush of as many more is being written
     * @param linesPerFile writes per data file of a change-log export
     * @param threads      threads that step the owned tables' captures, and as many that write their flushes
     */
    public record Capture(
            @DefaultValue("200ms") Duration pollInterval,
            @DefaultValue("2s") Duration settle,
            @DefaultValue("200000") int maxBuffered,
            @DefaultValue("10000") int linesPerFile,
            @DefaultValue("4") int threads) {}

    /**
     * @param concurrent   full backups this replica takes at once
     * @param scanSegments parallel Scan segments of one SCAN backup
     * @param itemsPerFile items per data file of a backup (one file is one unit of restore work)
     * @param pageLimit    items per Scan page: bounds how far one page may run ahead of the read budget
     * @param shared       whether a backup's segments are shared with every replica over Kafka
     *                     ({@code restore.protection.scans}); otherwise the replica that takes it scans them all
     * @param segmentWorkers shared segments this replica scans at once
     * @param segmentStall how long a shared backup waits for any of its segments to upload a data file before it
     *                     fails (to be taken again); longer than one data file takes at the segment's budget
     */
    public record Backups(
            @DefaultValue("2") int concurrent,
            @DefaultValue("4") int scanSegments,
            @DefaultValue("10000") int itemsPerFile,
            @DefaultValue("200") int pageLimit,
            @DefaultValue("true") boolean shared,
            @DefaultValue("4") int segmentWorkers,
            @DefaultValue("30m") Duration segmentStall) {}

    /**
     * @param every      how often expired backups and change logs are looked for
     * @param grace      how long an expired backup stays, for a restore that resolved it a moment before its
     *                   acceptance reached the status topic
     * @param holdAtMost how long a restore in progress keeps what it reads; an older one nobody ended holds nothing
     * @param maxHolds   restores in progress the fold tracks; past it everything is held until the dropped one is stale
     */
    public record Retention(
            @DefaultValue("1m") Duration every,
            @DefaultValue("1h") Duration grace,
            @DefaultValue("7d") Duration holdAtMost,
            @DefaultValue("10000") int maxHolds) {}

    /**
     * @param pollInterval how often a running export is asked about (DescribeExport)
     * @param timeout      how long one export may run before it counts as failed (it is looked for again)
     * @param checkEvery   how often a NATIVE_INCREMENTAL change log looks whether its next export is due
     * @param shortestWindow the shortest incremental export DynamoDB takes (15 minutes): a tail export for a
     *                     restore (ADR 0033) is started only when the chain's end is at least this far behind
     */
    public record Exports(
            @DefaultValue("10s") Duration pollInterval,
            @DefaultValue("6h") Duration timeout,
            @DefaultValue("1m") Duration checkEvery,
            @DefaultValue("15m") Duration shortestWindow) {}
}
