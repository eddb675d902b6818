package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** A segment could not be written and will not be retried; {@code reason} says why. */
public record SegmentFailed(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        int segment,
        String reason,
        long itemsWritten,
        String writer)
        implements RestoreEvent {

    public static SegmentFailed of(String restoreId, int segment, String reason, long itemsWritten, String writer) {
        return new SegmentFailed(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                segment,
                reason,
                itemsWritten,
                writer);
    }
}
