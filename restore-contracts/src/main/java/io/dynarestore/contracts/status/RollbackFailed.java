package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The rollback stopped before every key was put back; {@code reason} says why and what to do.
 * Asking for the rollback again resumes it (it is idempotent).
 */
public record RollbackFailed(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, String reason)
        implements RestoreEvent {

    public static RollbackFailed of(String restoreId, String reason) {
        return new RollbackFailed(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), reason);
    }
}
