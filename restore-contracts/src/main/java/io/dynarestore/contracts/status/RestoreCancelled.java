package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The restore stopped on request. {@code itemsWritten} were written and stay where they are;
 * {@code note} says where, and what else was left (a table created, an import DynamoDB goes on with).
 */
public record RestoreCancelled(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, long itemsWritten, String note)
        implements RestoreEvent {

    public static RestoreCancelled of(String restoreId, long itemsWritten, String note) {
        return new RestoreCancelled(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), itemsWritten, note);
    }
}
