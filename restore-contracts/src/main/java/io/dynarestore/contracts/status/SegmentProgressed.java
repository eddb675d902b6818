package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * A writer's periodic report on a segment it is writing. Counts are totals so far, not deltas.
 * It is also the segment's checkpoint: the first {@code linesDone} lines of its data file are in
 * the destination, so a writer that takes the segment over resumes after them.
 */
public record SegmentProgressed(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        int segment,
        long itemsWritten,
        long bytesWritten,
        String writer,
        Long linesDone,
        Long wcuConsumed,
        Long throttles)
        implements RestoreEvent {

    public static SegmentProgressed of(String restoreId, int segment, long items, long bytes, String writer) {
        return of(restoreId, segment, items, bytes, writer, null, null, null);
    }

    public static SegmentProgressed of(
            String restoreId,
            int segment,
            long items,
            long bytes,
            String writer,
            Long linesDone,
            Long wcu,
            Long throttles) {
        return new SegmentProgressed(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                segment,
                items,
                bytes,
                writer,
                linesDone,
                wcu,
                throttles);
    }
}
