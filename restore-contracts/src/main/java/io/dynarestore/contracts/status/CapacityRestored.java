package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.List;

/**
 * The write capacity raised for a restore is back at its original values ({@code restored}),
 * or could not be and never will be ({@code note} says why, for example the table was deleted).
 */
public record CapacityRestored(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        TableRef table,
        List<CapacityUnits> restored,
        String note)
        implements RestoreEvent {

    public static CapacityRestored of(String restoreId, TableRef table, List<CapacityUnits> restored, String note) {
        return new CapacityRestored(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), table, List.copyOf(restored), note);
    }
}
