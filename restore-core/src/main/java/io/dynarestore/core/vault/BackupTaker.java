package io.dynarestore.core.vault;

import io.dynarestore.contracts.BackupIds;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.retry.Pacer;
import io.dynarestore.core.threads.DaemonThreads;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Takes a full backup of a live table into the vault: a parallel Scan with one thread per scan
 * segment, each writing its own data files. Consistent reads, so that each item is read as
 * committed; like any Scan-based backup it is not a snapshot of one instant (writes during the
 * scan may or may not be included), which is why {@code takenAt} is the scan's start.
 *
 * <p>Rule: each segment saves a {@link ScanCheckpoint} after every data file it uploads, and a
 * backup taken again under the same id (the next owner of a crashed one) adopts those files and
 * scans each segment on from its checkpoint, so that it reads again at most one file's worth of
 * items per segment. The checkpoints are deleted once {@code backup.json} lists the backup.
 */
public final class BackupTaker {


    private final DynamoDbClient dynamo;
    private final S3Client s3;
    private final VaultLayout layout;
    private final AtomicLong read = new AtomicLong();
    private LongConsumer progress = n -> { };

    public BackupTaker(DynamoDbClient dynamo, S3Client s3, VaultLayout layout) {
        this.dynamo = dynamo;
        this.s3 = s3;
        this.layout = layout;
    }

    /** Tells {@code progress} the items read so far after every page (from the segments' threads). */
    public BackupTaker onProgress(LongConsumer progress) {
        this.progress = progress;
        return this;
    }

    /** A sortable backup id: the time it was taken, then a random suffix. */
    public static String newBackupId(Instant takenAt) {
        return BackupIds.stamp(takenAt) + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public Backup take(String account, String region, String table, Settings settings) {
        Instant takenAt = settings.takenAt() != null ? settings.takenAt() : Instant.now();
        String backupId = settings.backupId() != null ? settings.backupId() : newBackupId(takenAt);
        TableDescription description = dynamo.describeTable(b -> b.tableName(table)).table();
        List<Tag> tags = dynamo.listTagsOfResource(b -> b.resourceArn(description.tableArn())).tags();
        TimeToLiveDescription ttl = dynamo.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription();

        ContinuousBackupsDescription continuous = continuousBackups(table);
        var writer = new BackupWriter(s3, layout, account, region, table, backupId, settings.itemsPerFile())
                .countingIndexesOf(description);
        // a backup an earlier attempt (a replica that died) got partway through goes on from its checkpoints
        var resumed = new ArrayList<ScanCheckpoint>();
        for (int segment = 0; segment < settings.scanSegments(); segment++) {
            ScanCheckpoint c = checkpoint(account, region, table, backupId, segment, settings.scanSegments());
            resumed.add(c);
            if (c != null) {
                writer.adopt(c.uploaded());
                read.addAndGet(c.uploaded().items());
            }
        }
        List<String> keyNames = description.keySchema().stream().map(k -> k.attributeName()).toList();
        var where = new Checkpoints(account, region, table, backupId, keyNames);
        ExecutorService pool = Executors.newFixedThreadPool(settings.scanSegments(), DaemonThreads.named("scan-" + table));
        var pacer = new Pacer();
        long averageBytes = averageItemBytes(description);
        try {
            var futures = new ArrayList<Future<?>>();
            for (int segment = 0; segment < settings.scanSegments(); segment++) {
                int s = segment;
                futures.add(pool.submit(() -> {
                    scanSegment(table, s, settings.scanSegments(), writer, settings, pacer, averageBytes,
                            resumed.get(s), where);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("backup of " + table + " was interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("backup of " + table + " failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        // writes made during the Scan may be in it or not: only from its end is the backup exact, unless it
        // is said to stand for a quiet table's past (a fixture's history)
        Instant scanned = settings.history() ? null : Instant.now();
        Backup backup = writer.finish(description, tags, ttl, continuous, takenAt, takenAt.plus(settings.retention()),
                scanned);
        for (int segment = 0; segment < settings.scanSegments(); segment++) {
            String key = ScanCheckpoint.key(layout, account, region, table, backupId, segment, settings.scanSegments());
            s3.deleteObject(b -> b.bucket(layout.bucket()).key(key)); // the backup is listed: nothing resumes it
        }
        return backup;
    }

    /** Where one backup's segments put their checkpoints, and the table's key attributes. */
    private record Checkpoints(String account, String region, String table, String backupId, List<String> keyNames) {
    }

    private ScanCheckpoint checkpoint(String account, String region, String table, String backupId, int segment,
                                      int segments) {
        String key = ScanCheckpoint.key(layout, account, region, table, backupId, segment, segments);
        try {
            byte[] body = s3.getObjectAsBytes(b -> b.bucket(layout.bucket()).key(key)).asByteArray();
            return io.dynarestore.contracts.Json.mapper().readValue(body, ScanCheckpoint.class);
        } catch (software.amazon.awssdk.services.s3.model.NoSuchKeyException e) {
            return null;
        }
    }

    private void saveCheckpoint(Checkpoints where, int segment, int segments, Map<String, AttributeValue> last,
                                BackupWriter.Uploaded uploaded) {
        var key = new java.util.LinkedHashMap<String, AttributeValue>();
        where.keyNames().forEach(k -> key.put(k, last.get(k)));
        var checkpoint = new ScanCheckpoint(segment, segments, io.dynarestore.core.codec.DynamoJson.toJson(key), uploaded);
        String object = ScanCheckpoint.key(layout, where.account(), where.region(), where.table(), where.backupId(),
                segment, segments);
        s3.putObject(b -> b.bucket(layout.bucket()).key(object).contentType("application/json"),
                software.amazon.awssdk.core.sync.RequestBody.fromBytes(io.dynarestore.contracts.Json.toBytes(checkpoint)));
    }

    /** The table's PITR setting, or {@code null} where the endpoint does not implement the call (dynalite). */
    private ContinuousBackupsDescription continuousBackups(String table) {
        try {
            return dynamo.describeContinuousBackups(b -> b.tableName(table)).continuousBackupsDescription();
        } catch (DynamoDbException e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if (code != null && code.endsWith("UnknownOperationException")) {
                return null;
            }
            throw e;
        }
    }

    private void scanSegment(String table, int segment, int total, BackupWriter writer, Settings settings,
                             Pacer pacer, long averageItemBytes, ScanCheckpoint resumed, Checkpoints where)
            throws InterruptedException {
        boolean paced = settings.readUnitsPerSecond() > 0;
        // pages small against the budget (a twentieth of a second's worth), so that no second runs far over
        double unitsPerPage = Math.max(1, settings.readUnitsPerSecond() / 20);
        long itemsRead = 0;
        long bytesRead = 0;
        try (BackupWriter.Part part = writer.openPart()) {
            Map<String, AttributeValue> start = resumed == null ? null
                    : io.dynarestore.core.codec.DynamoJson.fromJson(resumed.lastKey());
            BackupWriter.Uploaded earlier = resumed == null ? BackupWriter.Uploaded.NOTHING : resumed.uploaded();
            do {
                long average = itemsRead > 0 ? Math.max(1, bytesRead / itemsRead) : averageItemBytes;
                int limit = paced ? (int) Math.max(1, Math.min(settings.pageLimit(), unitsPerPage * 4_096 / average))
                        : settings.pageLimit();
                long estimate = Math.max(1, (limit * average + 4_095) / 4_096);
                if (paced) {
                    // reserve what the page will likely cost before reading it
                    pause(pacer.reserve(estimate, settings.readUnitsPerSecond(), System.nanoTime()));
                }
                var request = ScanRequest.builder().tableName(table).segment(segment).totalSegments(total)
                        .consistentRead(true).exclusiveStartKey(start).limit(limit).build();
                ScanResponse page = dynamo.scan(request);
                long bytes = 0;
                for (Map<String, AttributeValue> item : page.items()) {
                    if (part.write(item)) {
                        // a data file is uploaded and ends with this item: a Scan resumed after it misses nothing
                        saveCheckpoint(where, segment, total, item, plus(earlier, part.uploaded()));
                    }
                    bytes += ItemSize.of(item);
                }
                itemsRead += page.items().size();
                progress.accept(read.addAndGet(page.items().size()));
                bytesRead += bytes;
                // a consistent Scan costs one read unit per 4 KB of the page, rounded up
                long units = Math.max(1, (bytes + 4_095) / 4_096);
                if (paced && units > estimate) {
                    pause(pacer.reserve(units - estimate, settings.readUnitsPerSecond(), System.nanoTime()));
                }
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            } while (start != null);
        }
    }

    private static BackupWriter.Uploaded plus(BackupWriter.Uploaded a, BackupWriter.Uploaded b) {
        var files = new ArrayList<>(a.files());
        files.addAll(b.files());
        var units = new java.util.TreeMap<>(a.indexUnits());
        b.indexUnits().forEach((index, u) -> units.merge(index, u, Long::sum));
        return new BackupWriter.Uploaded(files, a.items() + b.items(), a.bytes() + b.bytes(),
                a.writeUnits() + b.writeUnits(), units);
    }

    private static void pause(long nanos) throws InterruptedException {
        if (nanos > 0) {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        }
    }

    /** The table's average item size, or 1 KB where it does not say. */
    private static long averageItemBytes(TableDescription description) {
        Long count = description.itemCount();
        Long size = description.tableSizeBytes();
        return count != null && count > 0 && size != null && size > 0 ? Math.max(1, size / count) : 1_024;
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
    public record Settings(int itemsPerFile, int scanSegments, Duration retention, String backupId, Instant takenAt,
                           double readUnitsPerSecond, int pageLimit, boolean history) {
        public static Settings defaults() {
            return new Settings(10_000, 4, Duration.ofDays(35), null, null, 0, 1_000, false);
        }

        /**
         * A backup that stands for the table as it was at {@code t}, exactly: only for a table that took no
         * write since (a fixture, the demo's history), which a Scan of a live table never is.
         */
        public Settings asOf(Instant t) {
            return new Settings(itemsPerFile, scanSegments, retention, backupId, t, readUnitsPerSecond, pageLimit, true);
        }

        public Settings withItemsPerFile(int n) {
            return new Settings(n, scanSegments, retention, backupId, takenAt, readUnitsPerSecond, pageLimit, history);
        }

        public Settings withRetention(Duration d) {
            return new Settings(itemsPerFile, scanSegments, d, backupId, takenAt, readUnitsPerSecond, pageLimit, history);
        }

        public Settings withTakenAt(Instant t) {
            return new Settings(itemsPerFile, scanSegments, retention, backupId, t, readUnitsPerSecond, pageLimit, history);
        }

        public Settings withBackupId(String id) {
            return new Settings(itemsPerFile, scanSegments, retention, id, takenAt, readUnitsPerSecond, pageLimit, history);
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
