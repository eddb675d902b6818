package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Work items are on {@code restore.segments}: all of them ({@code ALL}), or, for a phased
 * point-in-time restore, the base's ({@code BASE}) and later the delta's ({@code DELTA}).
 */
public record SegmentsDispatched(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, int segments, Phase phase)
        implements RestoreEvent {

    public static SegmentsDispatched of(String restoreId, int segments) {
        return of(restoreId, segments, Phase.ALL);
    }

    public static SegmentsDispatched of(String restoreId, int segments, Phase phase) {
        return new SegmentsDispatched(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), segments, phase);
    }

    /** Which segments. */
    public enum Phase {
        ALL,
        BASE,
        DELTA
    }
}
