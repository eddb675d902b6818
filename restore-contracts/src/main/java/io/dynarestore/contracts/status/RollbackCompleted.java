package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Every key the restore touched holds its image from before the restore again (or is absent,
 * when the restore created it).
 *
 * @param destination    the table put back ({@code null} when the restore ended before it was planned)
 * @param itemsRestored  items put back as they were before the restore
 * @param itemsDeleted   items the restore had created, deleted again
 * @param itemsUnchanged keys that were as they were before the restore already
 * @param journalEntries entries of the undo journal read
 */
public record RollbackCompleted(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        TableRef destination,
        long itemsRestored,
        long itemsDeleted,
        long itemsUnchanged,
        long journalEntries,
        long durationMs)
        implements RestoreEvent {

    public static RollbackCompleted of(
            String restoreId,
            TableRef destination,
            long restored,
            long deleted,
            long unchanged,
            long entries,
            long durationMs) {
        return new RollbackCompleted(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                destination,
                restored,
                deleted,
                unchanged,
                entries,
                durationMs);
    }
}
