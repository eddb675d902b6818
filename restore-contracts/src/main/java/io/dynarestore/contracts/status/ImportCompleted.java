package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * DynamoDB finished the import: {@code itemsImported} items are in the table, {@code errors}
 * lines could not be imported (DynamoDB logs them to CloudWatch).
 */
public record ImportCompleted(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String importArn,
        long itemsImported,
        long bytesProcessed,
        long errors)
        implements RestoreEvent {

    public static ImportCompleted of(String restoreId, String importArn, long items, long bytes, long errors) {
        return new ImportCompleted(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), importArn, items, bytes, errors);
    }
}
