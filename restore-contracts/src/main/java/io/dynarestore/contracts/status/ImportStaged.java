package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The items to restore are staged for DynamoDB ImportTable: gzip DYNAMODB_JSON files under
 * {@code s3://bucket/prefix}, {@code items} items of {@code bytes} bytes (uncompressed, as
 * DynamoDB bills an import) in {@code files} files.
 */
public record ImportStaged(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String bucket,
        String prefix,
        long items,
        long bytes,
        int files)
        implements RestoreEvent {

    public static ImportStaged of(String restoreId, String bucket, String prefix, long items, long bytes, int files) {
        return new ImportStaged(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), bucket, prefix, items, bytes, files);
    }
}
