package io.dynarestore.protector.backups;

import java.util.function.LongConsumer;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Where the segments of a backup's Scan are scanned: on threads of this process
 * ({@link #local}), or by whichever processes share the work (the protector's replicas over
 * Kafka). Rule: {@link #scanAll} returns only once every segment has a done
 * {@link ScanCheckpoint}, and throws when one cannot be scanned.
 */
public interface SegmentRunner {

    /**
     * Scans every segment of {@code job} within {@code readUnitsPerSecond} in all (0: unpaced);
     * {@code itemsRead} hears items read, as increments, from any thread.
     */
    void scanAll(SegmentScan.Job job, TableDescription description, double readUnitsPerSecond, LongConsumer itemsRead)
            throws InterruptedException;

    /** One thread per segment in this process, all paced by one shared pacer to the whole budget. */
    static SegmentRunner local(SegmentScan scan) {
        return new LocalSegments(scan);
    }
}
