package io.dynarestore.protector.backups;

import io.dynarestore.contracts.BackupIds;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Takes a full backup of a live table into the vault: a parallel Scan whose segments a
 * {@link SegmentRunner} scans (threads of this process by default), each into its own data files.
 * Consistent reads, so that each item is read as committed; like any Scan-based backup it is not a
 * snapshot of one instant (writes during the scan may or may not be included), which is why
 * {@code takenAt} is the scan's start.
 *
 * <p>Rule: the backup is written from its segments' done {@link ScanCheckpoint}s, and only once
 * every segment has one; a backup taken again under the same id (the next owner of a crashed one)
 * scans only what its segments' checkpoints do not hold (see {@link SegmentScan}). The checkpoints
 * are deleted once {@code backup.json} lists the backup.
 */
public final class BackupTaker {

    private final DynamoDbClient dynamo;
    private final S3Client s3;
    private final VaultLayout layout;
    private final AtomicLong read = new AtomicLong();
    private final SegmentScan scan;
    private SegmentRunner segments;
    private LongConsumer progress = n -> {};

    public BackupTaker(DynamoDbClient dynamo, S3Client s3, VaultLayout layout) {
        this.dynamo = dynamo;
        this.s3 = s3;
        this.layout = layout;
        this.scan = new SegmentScan(dynamo, s3, layout);
        this.segments = SegmentRunner.local(scan);
    }

    /** Tells {@code progress} the items read so far after every page (from the segments' threads). */
    public BackupTaker onProgress(LongConsumer progress) {
        this.progress = progress;
        return this;
    }

    /** Has {@code runner} scan the segments instead of threads of this process. */
    public BackupTaker segmentsBy(SegmentRunner runner) {
        this.segments = runner;
        return this;
    }

    /** A sortable backup id: the time it was taken, then a random suffix. */
    public static String newBackupId(Instant takenAt) {
        return BackupIds.stamp(takenAt) + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public Backup take(String account, String region, String table, Settings settings) {
        Instant takenAt = settings.takenAt() != null ? settings.takenAt() : Instant.now();
        String backupId = settings.backupId() != null ? settings.backupId() : newBackupId(takenAt);
        var described = DescribedTable.of(dynamo, table);
        ContinuousBackupsDescription continuous = continuousBackups(table);
        // a backup taken again stands for its first attempt's start: its files hold items read from then on
        var asked = new SegmentScan.Job(
                account,
                region,
                table,
                backupId,
                settings.scanSegments(),
                settings.itemsPerFile(),
                settings.pageLimit(),
                takenAt);
        takenAt = earliestBegun(asked);
        var job = asked.withTakenAt(takenAt);
        try {
            segments.scanAll(
                    job,
                    described.description(),
                    settings.readUnitsPerSecond(),
                    n -> progress.accept(read.addAndGet(n)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("backup of " + table + " was interrupted", e);
        }
        var writer = new BackupWriter(s3, layout, account, region, table, backupId, settings.itemsPerFile())
                .countingIndexesOf(described.description());
        for (int segment = 0; segment < settings.scanSegments(); segment++) {
            ScanCheckpoint done = scan.checkpoint(job, segment);
            if (done == null || !done.done()) {
                throw new IllegalStateException("backup " + backupId + " of " + table + ": segment " + segment + " of "
                        + settings.scanSegments() + " is not scanned to its end");
            }
            writer.adopt(done.uploaded());
        }
        // writes made during the Scan may be in it or not: only from its end is the backup exact, unless it
        // is said to stand for a quiet table's past (a fixture's history)
        Instant scanned = settings.history() ? null : Instant.now();
        Backup backup = writer.finish(
                described.description(),
                described.tags(),
                described.ttl(),
                continuous,
                takenAt,
                takenAt.plus(settings.retention()),
                scanned);
        scan.deleteCheckpoints(job);
        return backup;
    }

    /** The earliest start a checkpoint of {@code job}'s segments records, or the job's own. */
    private Instant earliestBegun(SegmentScan.Job job) {
        Instant earliest = job.takenAt();
        for (int segment = 0; segment < job.segments(); segment++) {
            ScanCheckpoint c = scan.checkpoint(job, segment);
            if (c != null && c.takenAt() != null && c.takenAt().isBefore(earliest)) {
                earliest = c.takenAt();
            }
        }
        return earliest;
    }

    /** The table's PITR setting, or {@code null} where the endpoint does not implement the call (dynalite). */
    private ContinuousBackupsDescription continuousBackups(String table) {
        try {
            return dynamo.describeContinuousBackups(b -> b.tableName(table)).continuousBackupsDescription();
        } catch (DynamoDbException e) {
            String code =
                    e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if (code != null && code.endsWith("UnknownOperationException")) {
                return null;
            }
            throw e;
        }
    }

    /**
     * How to take a backup.
     *
     * @param itemsPerFile       items per data file: one data file is one unit of restore work
     * @param scanSegments       parallel Scan segments (threads)
     * @param retention          how long the backup stays restorable
     * @param backupId           a chosen id, or {@code null} for a new one
     * @param takenAt            a chosen time (the Scan's start rounded down), or {@code null} for now; the
     *                           backup is exact only from the Scan's end ({@code consistentAt})
     * @param history            the backup stands for {@code takenAt} exactly: the table took no write since
     *                           (fixtures, the demo's history; see {@link #asOf})
     * @param readUnitsPerSecond the read budget the segments share (0: unpaced)
     * @param pageLimit          items per Scan page at most (a paced Scan takes pages of a twentieth of its budget)
     */
    public record Settings(
            int itemsPerFile,
            int scanSegments,
            Duration retention,
            String backupId,
            Instant takenAt,
            double readUnitsPerSecond,
            int pageLimit,
            boolean history) {
        public static Settings defaults() {
            return new Settings(10_000, 4, Duration.ofDays(35), null, null, 0, 1_000, false);
        }

        /**
         * A backup that stands for the table as it was at {@code t}, exactly: only for a table that took no
         * write since (a fixture, the demo's history), which a Scan of a live table never is.
         */
        public Settings asOf(Instant t) {
            return new Settings(
                    itemsPerFile, scanSegments, retention, backupId, t, readUnitsPerSecond, pageLimit, true);
        }

        public Settings withItemsPerFile(int n) {
            return new Settings(n, scanSegments, retention, backupId, takenAt, readUnitsPerSecond, pageLimit, history);
        }

        public Settings withRetention(Duration d) {
            return new Settings(
                    itemsPerFile, scanSegments, d, backupId, takenAt, readUnitsPerSecond, pageLimit, history);
        }

        public Settings withTakenAt(Instant t) {
            return new Settings(
                    itemsPerFile, scanSegments, retention, backupId, t, readUnitsPerSecond, pageLimit, history);
        }

        public Settings withBackupId(String id) {
            return new Settings(
                    itemsPerFile, scanSegments, retention, id, takenAt, readUnitsPerSecond, pageLimit, history);
        }

        public Settings withScanSegments(int n) {
            return new Settings(itemsPerFile, n, retention, backupId, takenAt, readUnitsPerSecond, pageLimit, history);
        }

        /** Paces the Scan to {@code units} read units per second, in pages of at most {@code pageLimit} items. */
        public Settings withReadBudget(double units, int pageLimit) {
            return new Settings(itemsPerFile, scanSegments, retention, backupId, takenAt, units, pageLimit, history);
        }
    }
}
