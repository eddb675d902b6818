package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** The protector started a full backup of a table (a scheduled slot or an on-demand request). */
public record BackupStarted(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String backupId,
        BackupMethod method,
        Instant slot)
        implements ProtectionEvent {

    public static BackupStarted of(
            String account, String region, String table, String backupId, BackupMethod method, Instant slot) {
        return new BackupStarted(
                Envelope.newEventId(), SCHEMA_VERSION, Envelope.now(), account, region, table, backupId, method, slot);
    }
}
