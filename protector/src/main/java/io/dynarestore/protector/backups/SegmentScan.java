package io.dynarestore.protector.backups;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.retry.Pacer;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Scans one segment of a backup's parallel, consistent Scan into data files of the backup's
 * folder, paced to a read budget. It needs nothing but the vault and the table, so that any
 * process may scan any segment.
 *
 * <p>Rule: a {@link ScanCheckpoint} after every uploaded data file and, at the segment's end, one
 * marked done that lists every file of the segment. A segment with a done checkpoint is not
 * scanned again; one with a checkpoint goes on after its last key (DynamoDB's ExclusiveStartKey),
 * reading again at most one data file's worth of items.
 */
public final class SegmentScan {

    private final DynamoDbClient dynamo;
    private final S3Client s3;
    private final VaultLayout layout;

    public SegmentScan(DynamoDbClient dynamo, S3Client s3, VaultLayout layout) {
        this.dynamo = dynamo;
        this.s3 = s3;
        this.layout = layout;
    }

    /**
     * One backup's Scan, as every segment of it sees it.
     *
     * @param segments     how many segments the Scan has
     * @param itemsPerFile items per data file
     * @param pageLimit    items per Scan page at most
     * @param takenAt      what the backup stands for: when its first attempt began to scan
     */
    public record Job(
            String account,
            String region,
            String table,
            String backupId,
            int segments,
            int itemsPerFile,
            int pageLimit,
            Instant takenAt) {

        /** This job standing for a backup taken at {@code at} (a retried backup keeps its first start). */
        public Job withTakenAt(Instant at) {
            return new Job(account, region, table, backupId, segments, itemsPerFile, pageLimit, at);
        }
    }

    /**
     * Scans {@code segment} of {@code job} (or goes on from its checkpoint) and returns what its files hold.
     * {@code pacer} spaces the reads at {@code unitsPerSecond} (0: unpaced); it may be shared by segments
     * that share one budget. {@code itemsRead} hears how many more items the segment holds, page by page
     * (what a resumed segment held already first).
     */
    public BackupWriter.Uploaded scan(
            Job job,
            TableDescription description,
            int segment,
            Pacer pacer,
            double unitsPerSecond,
            LongConsumer itemsRead)
            throws InterruptedException {
        ScanCheckpoint resumed = checkpoint(job, segment);
        BackupWriter.Uploaded earlier = resumed == null ? BackupWriter.Uploaded.NOTHING : resumed.uploaded();
        itemsRead.accept(earlier.items());
        if (resumed != null && resumed.done()) {
            return earlier;
        }
        List<String> keyNames =
                description.keySchema().stream().map(k -> k.attributeName()).toList();
        var writer = new BackupWriter(
                        s3, layout, job.account(), job.region(), job.table(), job.backupId(), job.itemsPerFile())
                .countingIndexesOf(description)
                .keysFirst(description);
        boolean paced = unitsPerSecond > 0;
        long averageItemBytes = averageItemBytes(description);
        long itemsScanned = 0;
        long bytesScanned = 0;
        Map<String, AttributeValue> start = resumed == null ? null : DynamoJson.fromJson(resumed.lastKey());
        BackupWriter.Part part = writer.openPart();
        try {
            do {
                long average = itemsScanned > 0 ? Math.max(1, bytesScanned / itemsScanned) : averageItemBytes;
                int limit = pageLimit(job, unitsPerSecond, average);
                long estimate = Math.max(1, (limit * average + 4_095) / 4_096);
                if (paced) {
                    // reserve what the page will likely cost before reading it
                    pause(pacer.reserve(estimate, unitsPerSecond, System.nanoTime()));
                }
                ScanResponse page = dynamo.scan(pageRequest(job, segment, start, limit));
                long bytes = write(page, part, job, segment, keyNames, earlier);
                itemsScanned += page.items().size();
                itemsRead.accept(page.items().size());
                bytesScanned += bytes;
                // a consistent Scan costs one read unit per 4 KB of the page, rounded up
                long units = Math.max(1, (bytes + 4_095) / 4_096);
                if (paced && units > estimate) {
                    pause(pacer.reserve(units - estimate, unitsPerSecond, System.nanoTime()));
                }
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                        ? page.lastEvaluatedKey()
                        : null;
            } while (start != null);
            part.close();
        } catch (RuntimeException | InterruptedException e) {
            part.discard();
            throw e;
        }
        BackupWriter.Uploaded all = plus(earlier, part.uploaded());
        save(job, new ScanCheckpoint(segment, job.segments(), null, all, true, job.takenAt()));
        return all;
    }

    /**
     * The items a page may hold: unpaced, the job's limit; paced, a twentieth of a second's budget at the
     * average item size, so that no second runs far over.
     */
    private static int pageLimit(Job job, double unitsPerSecond, long averageItemBytes) {
        if (unitsPerSecond <= 0) {
            return job.pageLimit();
        }
        double unitsPerPage = Math.max(1, unitsPerSecond / 20);
        return (int) Math.max(1, Math.min(job.pageLimit(), unitsPerPage * 4_096 / averageItemBytes));
    }

    private static ScanRequest pageRequest(Job job, int segment, Map<String, AttributeValue> start, int limit) {
        return ScanRequest.builder()
                .tableName(job.table())
                .segment(segment)
                .totalSegments(job.segments())
                .consistentRead(true)
                .exclusiveStartKey(start)
                .limit(limit)
                .build();
    }

    /** Writes a page's items to the part, checkpointing after each uploaded file; returns the page's bytes. */
    private long write(
            ScanResponse page,
            BackupWriter.Part part,
            Job job,
            int segment,
            List<String> keyNames,
            BackupWriter.Uploaded earlier) {
        long bytes = 0;
        for (Map<String, AttributeValue> item : page.items()) {
            if (part.write(item)) {
                // a data file is uploaded and ends with this item: a Scan resumed after it misses nothing
                var checkpoint = new ScanCheckpoint(
                        segment,
                        job.segments(),
                        keyOf(item, keyNames),
                        plus(earlier, part.uploaded()),
                        false,
                        job.takenAt());
                save(job, checkpoint);
            }
            bytes += ItemSize.of(item);
        }
        return bytes;
    }

    /** The checkpoint of {@code segment}, or {@code null} where it has none. */
    public ScanCheckpoint checkpoint(Job job, int segment) {
        return ScanCheckpoint.read(s3, layout, job, segment);
    }

    /** Deletes the segments' checkpoints: once the backup is listed, nothing resumes it. */
    public void deleteCheckpoints(Job job) {
        for (int segment = 0; segment < job.segments(); segment++) {
            String key = ScanCheckpoint.key(
                    layout, job.account(), job.region(), job.table(), job.backupId(), segment, job.segments());
            s3.deleteObject(b -> b.bucket(layout.bucket()).key(key));
        }
    }

    private void save(Job job, ScanCheckpoint checkpoint) {
        String key = ScanCheckpoint.key(
                layout,
                job.account(),
                job.region(),
                job.table(),
                job.backupId(),
                checkpoint.segment(),
                checkpoint.segments());
        s3.putObject(
                b -> b.bucket(layout.bucket()).key(key).contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(checkpoint)));
    }

    private static String keyOf(Map<String, AttributeValue> item, List<String> keyNames) {
        var key = new LinkedHashMap<String, AttributeValue>();
        keyNames.forEach(k -> key.put(k, item.get(k)));
        return DynamoJson.toJson(key);
    }

    static BackupWriter.Uploaded plus(BackupWriter.Uploaded a, BackupWriter.Uploaded b) {
        var files = new ArrayList<>(a.files());
        files.addAll(b.files());
        var units = new TreeMap<>(a.indexUnits());
        b.indexUnits().forEach((index, u) -> units.merge(index, u, Long::sum));
        return new BackupWriter.Uploaded(
                files, a.items() + b.items(), a.bytes() + b.bytes(), a.writeUnits() + b.writeUnits(), units);
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
}
