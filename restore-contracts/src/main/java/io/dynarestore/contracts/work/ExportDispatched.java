package io.dynarestore.contracts.work;

import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.request.Scope;
import java.time.Instant;
import java.util.List;

/**
 * Export the items of backup {@code backupId} of a table that match {@code filter} (all of them
 * when absent) as one CSV object {@code s3://bucket/key}, at most {@code cap} items. The exporter
 * reads the backup from the vault; Kafka carries the descriptor only. With a {@code split}, only
 * the data files {@code [firstFile, endFile)} are read and their rows are staged for the merge
 * ({@link ExportMergeDispatched}) instead of written to {@code key} (ADR 0041).
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
        long cap,
        Split split)
        implements ExportWork {

    /**
     * One part of a split export: the backup's data files {@code [firstFile, endFile)} (in manifest
     * order), whose rows and columns go under {@code staging} ({@code part-<part>.rows} and
     * {@code part-<part>.json}) in {@code bucket}.
     */
    public record Split(int part, int parts, int firstFile, int endFile, String staging) {}

    /** The same export, narrowed to one part. */
    public ExportDispatched part(Split part) {
        return new ExportDispatched(
                Envelope.newEventId(),
                restoreId,
                schemaVersion,
                occurredAt,
                account,
                region,
                table,
                backupId,
                filter,
                keyAttributes,
                keyTypes,
                bucket,
                key,
                cap,
                part);
    }

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
                cap,
                null);
    }
}
