package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** DynamoDB accepted the ImportTable request that creates and fills the destination. */
public record ImportStarted(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, String importArn, TableRef table)
        implements RestoreEvent {

    public static ImportStarted of(String restoreId, String importArn, TableRef table) {
        return new ImportStarted(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), importArn, table);
    }
}
