package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** Writes between from and to were not captured (the stream trimmed them before they were read, or the stream was replaced); the seconds in between are not restorable. */
public record ChangeLogGapped(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        Instant from,
        Instant to,
        String reason)
        implements ProtectionEvent {

    public static ChangeLogGapped of(
            String account, String region, String table, Instant from, Instant to, String reason) {
        return new ChangeLogGapped(
                Envelope.newEventId(), SCHEMA_VERSION, Envelope.now(), account, region, table, from, to, reason);
    }
}
