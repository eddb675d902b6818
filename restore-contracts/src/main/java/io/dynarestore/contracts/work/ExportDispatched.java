package io.dynarestore.contracts.work;

import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.request.Scope;
import java.time.Instant;
import java.util.List;

/**
 * Export the items of backup {@code backupId} of a table that match {@code filter} (all of them
 * when absent) as one CSV object {@code s3://bucket/key}, at most {@code cap} items. The exporter
 * reads the backup from the vault; Kafka carries the descriptor only.
 */
public record ExportDispatched(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String backupId,
        Scope.Records filter,
        List<String> keyAttributes,
        List<String> keyTypes,
        String bucket,
        String key,
        long cap)
        implements ExportWork {

    public static ExportDispatched of(
            String restoreId,
            String account,
            String region,
            String table,
            String backupId,
            Scope.Records filter,
            List<String> keyAttributes,
            List<String> keyTypes,
            String bucket,
            String key,
            long cap) {
        return new ExportDispatched(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                account,
                region,
                table,
                backupId,
                filter,
                keyAttributes,
                keyTypes,
                bucket,
                key,
                cap);
    }
}
