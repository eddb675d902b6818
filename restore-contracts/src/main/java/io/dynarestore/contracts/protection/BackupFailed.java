package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** A full backup could not be taken; nothing of it is listed. */
public record BackupFailed(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String backupId,
        BackupMethod method,
        String reason)
        implements ProtectionEvent {

    public static BackupFailed of(
            String account, String region, String table, String backupId, BackupMethod method, String reason) {
        return new BackupFailed(
                Envelope.newEventId(),
                SCHEMA_VERSION,
                Envelope.now(),
                account,
                region,
                table,
                backupId,
                method,
                reason);
    }
}
