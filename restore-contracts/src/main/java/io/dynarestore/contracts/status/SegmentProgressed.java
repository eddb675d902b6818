package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** A writer's periodic report on a segment it is writing. Counts are totals so far, not deltas. */
public record SegmentProgressed(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                                int segment, long itemsWritten, long bytesWritten, String writer) implements RestoreEvent {

    public static SegmentProgressed of(String restoreId, int segment, long items, long bytes, String writer) {
        return new SegmentProgressed(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), segment, items,
                bytes, writer);
    }
}
