package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** Retention deleted a full backup: it is no longer listed. */
public record BackupExpired(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String backupId,
        Instant expiresAt)
        implements ProtectionEvent {

    public static BackupExpired of(String account, String region, String table, String backupId, Instant expiresAt) {
        return new BackupExpired(
                Envelope.newEventId(), SCHEMA_VERSION, Envelope.now(), account, region, table, backupId, expiresAt);
    }
}
