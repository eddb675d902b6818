package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Every item of a segment is in the destination. A segment may complete more than once (a
 * writer that crashed before committing its offset is replaced and writes it again); readers
 * count a segment once.
 */
public record SegmentCompleted(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                               int segment, long itemsWritten, long itemsDeleted, long itemsSkipped,
                               long bytesWritten, long wcuConsumed, String writer, long durationMs)
        implements RestoreEvent {

    /** A segment of puts only. */
    public static SegmentCompleted of(String restoreId, int segment, long items, long bytes, long wcu, String writer,
                                      long durationMs) {
        return of(restoreId, segment, items, 0, 0, bytes, wcu, writer, durationMs);
    }

    /**
     * @param deleted items deleted from the destination
     * @param skipped items of the file not written: superseded by a later change, or deletes of
     *                items a new table cannot hold
     */
    public static SegmentCompleted of(String restoreId, int segment, long items, long deleted, long skipped,
                                      long bytes, long wcu, String writer, long durationMs) {
        return new SegmentCompleted(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), segment, items,
                deleted, skipped, bytes, wcu, writer, durationMs);
    }
}
