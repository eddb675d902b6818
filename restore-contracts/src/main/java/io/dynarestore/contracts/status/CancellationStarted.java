package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The planner took a cancel request: nothing more is dispatched, and writers stop their segments
 * of the restore. {@code RestoreCancelled} follows once every segment stopped (or after a grace time).
 */
public record CancellationStarted(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, String requestedBy, String reason)
        implements RestoreEvent {

    public static CancellationStarted of(String restoreId, String requestedBy, String reason) {
        return new CancellationStarted(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), requestedBy, reason);
    }
}
