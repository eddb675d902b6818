package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The planner began to put the destination back as it was before the restore, from the undo
 * journal the writers kept. Published once per rollback; a restore is rolled back at most once.
 */
public record RollbackStarted(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, String requestedBy, String reason)
        implements RestoreEvent {

    public static RollbackStarted of(String restoreId, String requestedBy, String reason) {
        return new RollbackStarted(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), requestedBy, reason);
    }
}
