package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.List;

/**
 * The planner is about to raise the destination's write capacity. Published before the change,
 * so the original values are durable: whoever owns the restore later, after any crash, puts
 * {@code original} back (then publishes {@link CapacityRestored}).
 */
public record CapacityRaiseStarted(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        TableRef table,
        List<CapacityUnits> original,
        List<CapacityUnits> raised)
        implements RestoreEvent {

    public static CapacityRaiseStarted of(
            String restoreId, TableRef table, List<CapacityUnits> original, List<CapacityUnits> raised) {
        return new CapacityRaiseStarted(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                table,
                List.copyOf(original),
                List.copyOf(raised));
    }
}
