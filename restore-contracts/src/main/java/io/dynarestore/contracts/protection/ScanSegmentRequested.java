package io.dynarestore.contracts.protection;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.Topic;
import java.time.Instant;

/**
 * Scan segment {@code segment} of {@code segments} of backup {@code backupId} of a table into the
 * vault, paced to {@code readUnitsPerSecond} (the segment's share of the backup's read budget),
 * {@code itemsPerFile} items per data file, going on from the segment's checkpoint if it has one;
 * {@code takenAt} (what the backup stands for) goes into the segment's checkpoints.
 * The replica that took the backup writes it once every segment is done.
 */
public record ScanSegmentRequested(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String backupId,
        int segment,
        int segments,
        int itemsPerFile,
        int pageLimit,
        double readUnitsPerSecond,
        Instant takenAt)
        implements ScanWork {

    public static ScanSegmentRequested of(
            String account,
            String region,
            String table,
            String backupId,
            int segment,
            int segments,
            int itemsPerFile,
            int pageLimit,
            double readUnitsPerSecond,
            Instant takenAt) {
        return new ScanSegmentRequested(
                Envelope.newEventId(),
                SCHEMA_VERSION,
                Envelope.now(),
                account,
                region,
                table,
                backupId,
                segment,
                segments,
                itemsPerFile,
                pageLimit,
                readUnitsPerSecond,
                takenAt);
    }

    /** The segment's key on {@code restore.protection.scans}. */
    @Override
    @JsonIgnore
    public String subject() {
        return Topic.scanKey(account, region, table, backupId, segment);
    }
}
