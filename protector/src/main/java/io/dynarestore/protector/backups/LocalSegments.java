package io.dynarestore.protector.backups;

import io.dynarestore.core.retry.Pacer;
import io.dynarestore.core.threads.DaemonThreads;
import java.util.ArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** A backup's segments on one thread each in this process, sharing one pacer (so one budget). */
final class LocalSegments implements SegmentRunner {

    private final SegmentScan scan;

    LocalSegments(SegmentScan scan) {
        this.scan = scan;
    }

    @Override
    public void scanAll(
            SegmentScan.Job job, TableDescription description, double readUnitsPerSecond, LongConsumer itemsRead)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(job.segments(), DaemonThreads.named("scan-" + job.table()));
        var pacer = new Pacer();
        try {
            var futures = new ArrayList<Future<?>>();
            for (int segment = 0; segment < job.segments(); segment++) {
                int s = segment;
                futures.add(pool.submit(() -> scan.scan(job, description, s, pacer, readUnitsPerSecond, itemsRead)));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "backup of " + job.table() + " failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
