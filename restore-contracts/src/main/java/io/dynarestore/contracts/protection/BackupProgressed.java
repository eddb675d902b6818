package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * A SCAN backup is under way: {@code itemsRead} so far, of about {@code tableItems} (DynamoDB's
 * approximate count, refreshed every six hours; null when it does not say). At most one every few
 * seconds per backup. A NATIVE_EXPORT backup tells nothing between started and completed: DynamoDB
 * reports no progress of an export.
 */
public record BackupProgressed(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String backupId,
        BackupMethod method,
        long itemsRead,
        Long tableItems)
        implements ProtectionEvent {

    public static BackupProgressed of(
            String account,
            String region,
            String table,
            String backupId,
            BackupMethod method,
            long itemsRead,
            Long tableItems) {
        return new BackupProgressed(
                Envelope.newEventId(),
                SCHEMA_VERSION,
                Envelope.now(),
                account,
                region,
                table,
                backupId,
                method,
                itemsRead,
                tableItems);
    }
}
