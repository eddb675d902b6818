package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.List;

/**
 * The destination table is ACTIVE and takes writes; {@code created} when the restore made it.
 * {@code warnings} name table settings that were asked for but that the endpoint cannot apply
 * (a local DynamoDB stand-in that lacks UpdateTimeToLive, for example).
 */
public record DestinationReady(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        TableRef table,
        boolean created,
        List<String> warnings)
        implements RestoreEvent {

    public static DestinationReady of(String restoreId, TableRef table, boolean created) {
        return of(restoreId, table, created, null);
    }

    public static DestinationReady of(String restoreId, TableRef table, boolean created, List<String> warnings) {
        return new DestinationReady(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                table,
                created,
                warnings == null || warnings.isEmpty() ? null : List.copyOf(warnings));
    }
}
