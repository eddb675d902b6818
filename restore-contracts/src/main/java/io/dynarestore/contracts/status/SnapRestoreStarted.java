package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The planner asks DynamoDB to restore the Snap {@code backupArn} into {@code table}
 * (RestoreTableFromBackup). Published before the call, so that a planner that restarts knows
 * a table of that name restored from that backup is this restore's.
 */
public record SnapRestoreStarted(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, String backupArn, TableRef table)
        implements RestoreEvent {

    public static SnapRestoreStarted of(String restoreId, String backupArn, TableRef table) {
        return new SnapRestoreStarted(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), backupArn, table);
    }
}
