package io.dynarestore.contracts.commands;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Put the destination of an ended restore (completed, failed or cancelled) into an existing
 * table or in place back as it was before the restore, for the keys the restore touched. A
 * rollback of a running restore, of a new table, a file or a dry run, or a second rollback,
 * changes nothing; a rollback that failed may be asked for again.
 */
public record RollbackRequested(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, String requestedBy, String reason)
        implements RestoreCommand {

    public static RollbackRequested of(String restoreId, String requestedBy, String reason) {
        return new RollbackRequested(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), requestedBy, reason);
    }
}
