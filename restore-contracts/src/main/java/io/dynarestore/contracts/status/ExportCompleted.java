package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The exporter wrote the restore's CSV file {@code s3://bucket/key}: {@code items} rows of the
 * {@code matching} items of the backup that match the filter ({@code capped} when the cap stopped
 * it short), {@code bytes} long, with this SHA-256.
 */
public record ExportCompleted(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String bucket,
        String key,
        long items,
        long bytes,
        String sha256,
        boolean capped,
        long matching)
        implements RestoreEvent {

    public static ExportCompleted of(
            String restoreId,
            String bucket,
            String key,
            long items,
            long bytes,
            String sha256,
            boolean capped,
            long matching) {
        return new ExportCompleted(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                bucket,
                key,
                items,
                bytes,
                sha256,
                capped,
                matching);
    }
}
