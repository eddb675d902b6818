package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** Every segment is written. {@code itemsWritten} counts each item of the source once. */
public record RestoreCompleted(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                               TableRef destination, long itemsWritten, long itemsOverwritten, long itemsUnchanged,
                               long itemsDeleted, long bytesWritten, int segments, long durationMs)
        implements RestoreEvent {

    public static RestoreCompleted of(String restoreId, TableRef destination, long items, long bytes, int segments,
                                      long durationMs) {
        return of(restoreId, destination, new SegmentCompleted.Counts(items, 0, 0, 0, 0), bytes, segments,
                durationMs);
    }

    public static RestoreCompleted of(String restoreId, TableRef destination, SegmentCompleted.Counts counts,
                                      long bytes, int segments, long durationMs) {
        return new RestoreCompleted(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), destination,
                counts.written(), counts.overwritten(), counts.unchanged(), counts.deleted(), bytes, segments,
                durationMs);
    }
}
