package io.dynarestore.contracts.commands;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Stop the restore: writers stop within seconds, items written stay, capacity raised for it is
 * put back. Any Kafka client may publish it; cancelling twice, or a restore that ended, changes
 * nothing.
 */
public record CancelRequested(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, String requestedBy, String reason)
        implements RestoreCommand {

    public static CancelRequested of(String restoreId, String requestedBy, String reason) {
        return new CancelRequested(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), requestedBy, reason);
    }
}
