package io.dynarestore.protector.backups;

import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Instant;
import java.util.function.LongConsumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Full backups by a parallel, consistent Scan, paced to a share of the table's read capacity (of
 * {@link #ON_DEMAND_READ_UNITS} for an on-demand table). The backup stands for the second its
 * Scan started (rounded down): every change captured from that second on is replayed over it, so
 * that an item the Scan read before or after a write comes out right either way. Its segments are
 * scanned here or, shared, by whichever replicas are assigned them ({@link SharedSegments}).
 */
public final class ScanBackups {

    /** What an on-demand table is assumed to serve: DynamoDB's default maximum for a new one. */
    public static final long ON_DEMAND_READ_UNITS = 4_000;

    static final int DEFAULT_READ_SHARE = 25;

    private final S3Client s3;
    private final VaultLayout layout;
    private final int itemsPerFile;
    private final int segments;
    private final int pageLimit;
    private final SegmentRunner shared;

    /** A backup's segments scanned on threads of this replica. */
    public ScanBackups(S3Client s3, VaultLayout layout, int itemsPerFile, int segments, int pageLimit) {
        this(s3, layout, itemsPerFile, segments, pageLimit, null);
    }

    /** A backup's segments scanned by {@code shared} (the replicas over Kafka), or here where it is {@code null}. */
    public ScanBackups(
            S3Client s3, VaultLayout layout, int itemsPerFile, int segments, int pageLimit, SegmentRunner shared) {
        this.s3 = s3;
        this.layout = layout;
        this.itemsPerFile = itemsPerFile;
        this.segments = segments;
        this.pageLimit = pageLimit;
        this.shared = shared;
    }

    /**
     * The read units per second a Scan of {@code table} may use under {@code policy}. Where the
     * endpoint enforces no capacity (dynalite), a provisioned table's units mean nothing and it is
     * budgeted like an on-demand one, as the writers budget it.
     */
    public static double readBudget(TableDescription table, ProtectionSet policy, boolean capacityEnforced) {
        Integer share = policy.backups().readSharePercent();
        boolean onDemand = !capacityEnforced
                || table.billingModeSummary() != null
                        && table.billingModeSummary().billingMode() == BillingMode.PAY_PER_REQUEST;
        long units = table.provisionedThroughput() == null
                ? 0
                : table.provisionedThroughput().readCapacityUnits();
        long capacity = onDemand || units <= 0 ? ON_DEMAND_READ_UNITS : units;
        return capacity * (share == null ? DEFAULT_READ_SHARE : share) / 100.0;
    }

    /** Takes the backup; {@code progress} hears the items read so far, after every page. */
    public Backup take(
            DynamoDbClient dynamo,
            boolean capacityEnforced,
            ProtectionSet policy,
            String backupId,
            Instant startedAt,
            LongConsumer progress) {
        TableDescription table =
                dynamo.describeTable(b -> b.tableName(policy.table())).table();
        var settings = BackupTaker.Settings.defaults()
                .withItemsPerFile(itemsPerFile)
                .withScanSegments(segments)
                .withRetention(policy.backupRetention())
                .withBackupId(backupId)
                .withTakenAt(Instant.ofEpochSecond(startedAt.getEpochSecond()))
                .withReadBudget(readBudget(table, policy, capacityEnforced), pageLimit);
        var taker = new BackupTaker(dynamo, s3, layout).onProgress(progress);
        if (shared != null) {
            taker.segmentsBy(shared);
        }
        return taker.take(policy.account(), policy.region(), policy.table(), settings);
    }
}
