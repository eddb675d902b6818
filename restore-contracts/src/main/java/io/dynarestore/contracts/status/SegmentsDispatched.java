package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** Every segment's work item is on {@code restore.segments}; writers take them from here on. */
public record SegmentsDispatched(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                                 int segments) implements RestoreEvent {

    public static SegmentsDispatched of(String restoreId, int segments) {
        return new SegmentsDispatched(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), segments);
    }
}
