package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Every item of a segment is in the destination. A segment may complete more than once (a
 * writer that crashed before committing its offset is replaced and writes it again); readers
 * count a segment once.
 */
public record SegmentCompleted(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                               int segment, long itemsWritten, long bytesWritten, long wcuConsumed, String writer,
                               long durationMs) implements RestoreEvent {

    public static SegmentCompleted of(String restoreId, int segment, long items, long bytes, long wcu, String writer,
                                      long durationMs) {
        return new SegmentCompleted(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), segment, items,
                bytes, wcu, writer, durationMs);
    }
}
