package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** The destination table is ACTIVE and takes writes; {@code created} when the restore made it. */
public record DestinationReady(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                               TableRef table, boolean created) implements RestoreEvent {

    public static DestinationReady of(String restoreId, TableRef table, boolean created) {
        return new DestinationReady(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), table, created);
    }
}
