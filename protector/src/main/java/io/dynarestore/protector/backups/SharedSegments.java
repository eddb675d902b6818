package io.dynarestore.protector.backups;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.ScanSegmentRequested;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongConsumer;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A backup's Scan segments scanned by whichever protector replicas are assigned them on
 * {@code restore.protection.scans} ({@link SegmentWorker}), each paced to its share of the
 * backup's read budget. The replica that takes the backup asks for every segment, then watches
 * the segments' checkpoints in the vault until each is done.
 *
 * <p>Rule: the wait ends with the backup failed when a segment's scanner records a failure, or
 * when no segment has gone on for {@code stall} (no replica reads the topic); a backup taken again
 * asks for the segments again, and each goes on from its checkpoint.
 */
public final class SharedSegments implements SegmentRunner {

    private final EventPublisher publisher;
    private final S3Client s3;
    private final VaultLayout layout;
    private final SegmentFailures failures;
    private final Duration pollEvery;
    private final Duration stall;

    public SharedSegments(
            EventPublisher publisher, S3Client s3, VaultLayout layout, Duration pollEvery, Duration stall) {
        this.publisher = publisher;
        this.s3 = s3;
        this.layout = layout;
        this.failures = new SegmentFailures(s3, layout);
        this.pollEvery = pollEvery;
        this.stall = stall;
    }

    /** The objects under the backup's {@code _scan/} folder, each with its ETag. */
    private Map<String, String> scanObjects(SegmentScan.Job job) {
        String prefix = layout.backupPrefix(job.account(), job.region(), job.table(), job.backupId()) + "_scan/";
        var objects = new HashMap<String, String>();
        for (var page : s3.listObjectsV2Paginator(b -> b.bucket(layout.bucket()).prefix(prefix))) {
            page.contents().forEach(o -> objects.put(o.key(), o.eTag()));
        }
        return objects;
    }

    /** One request per segment, for any replica, each with its share of the read budget. */
    private void request(SegmentScan.Job job, double readUnitsPerSecond) {
        int n = job.segments();
        for (int segment = 0; segment < n; segment++) {
            failures.clear(job, segment);
            var request = ScanSegmentRequested.of(
                    job.account(),
                    job.region(),
                    job.table(),
                    job.backupId(),
                    segment,
                    n,
                    job.itemsPerFile(),
                    job.pageLimit(),
                    readUnitsPerSecond / n,
                    job.takenAt());
            EventPublisher.await(publisher.send(Topic.PROTECTION_SCANS, request.subject(), request));
        }
    }

    @Override
    public void scanAll(
            SegmentScan.Job job, TableDescription description, double readUnitsPerSecond, LongConsumer itemsRead)
            throws InterruptedException {
        int n = job.segments();
        request(job, readUnitsPerSecond);
        long[] items = new long[n];
        String[] seen = new String[n]; // the ETag of each segment's checkpoint when last read
        boolean[] done = new boolean[n];
        int remaining = n;
        long lastChange = System.nanoTime();
        while (remaining > 0) {
            Thread.sleep(pollEvery.toMillis());
            // one listing a turn tells which checkpoints changed and which segments failed; only those are read
            Map<String, String> objects = scanObjects(job);
            for (int segment = 0; segment < n; segment++) {
                if (done[segment]) {
                    continue;
                }
                if (objects.containsKey(failures.key(job, segment))) {
                    throw new IllegalStateException("segment " + segment + " of " + n + " of backup " + job.backupId()
                            + " failed: " + failures.of(job, segment).orElse("(reason gone)"));
                }
                String etag = objects.get(ScanCheckpoint.key(
                        layout, job.account(), job.region(), job.table(), job.backupId(), segment, n));
                if (etag == null || etag.equals(seen[segment])) {
                    continue;
                }
                ScanCheckpoint checkpoint = ScanCheckpoint.read(s3, layout, job, segment);
                if (checkpoint == null) {
                    continue;
                }
                seen[segment] = etag;
                lastChange = System.nanoTime();
                long more = Math.max(0, checkpoint.uploaded().items() - items[segment]);
                items[segment] += more;
                itemsRead.accept(more);
                if (checkpoint.done()) {
                    done[segment] = true;
                    remaining--;
                }
            }
            if (remaining > 0 && System.nanoTime() - lastChange > stall.toNanos()) {
                throw new IllegalStateException("no segment of backup " + job.backupId() + " of " + job.table()
                        + " went on for " + stall + ": is a protector replica reading "
                        + Topic.PROTECTION_SCANS.topicName() + "?");
            }
        }
    }
}
