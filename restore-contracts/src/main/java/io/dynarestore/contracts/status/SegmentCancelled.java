package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** A writer stopped the segment because its restore is cancelled; {@code itemsWritten} of it stay written. */
public record SegmentCancelled(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        int segment,
        long itemsWritten,
        long bytesWritten,
        String writer)
        implements RestoreEvent {

    public static SegmentCancelled of(String restoreId, int segment, long items, long bytes, String writer) {
        return new SegmentCancelled(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), segment, items, bytes, writer);
    }
}
