package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** A full backup is in the vault and listed (its backup.json written last). */
public record BackupCompleted(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String backupId,
        BackupMethod method,
        Instant takenAt,
        Instant expiresAt,
        Long itemCount,
        Long durationMillis)
        implements ProtectionEvent {

    public static BackupCompleted of(
            String account,
            String region,
            String table,
            String backupId,
            BackupMethod method,
            Instant takenAt,
            Instant expiresAt,
            Long itemCount,
            Long durationMillis) {
        return new BackupCompleted(
                Envelope.newEventId(),
                SCHEMA_VERSION,
                Envelope.now(),
                account,
                region,
                table,
                backupId,
                method,
                takenAt,
                expiresAt,
                itemCount,
                durationMillis);
    }
}
