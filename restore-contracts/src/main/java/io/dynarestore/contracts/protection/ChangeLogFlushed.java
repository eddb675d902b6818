package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** Captured writes of [from, to) are in the vault as one incremental export; every second up to to minus one is restorable from a backup before it. */
public record ChangeLogFlushed(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String exportId,
        Instant from,
        Instant to,
        Long records,
        Long lagMillis)
        implements ProtectionEvent {

    public static ChangeLogFlushed of(
            String account,
            String region,
            String table,
            String exportId,
            Instant from,
            Instant to,
            Long records,
            Long lagMillis) {
        return new ChangeLogFlushed(
                Envelope.newEventId(),
                SCHEMA_VERSION,
                Envelope.now(),
                account,
                region,
                table,
                exportId,
                from,
                to,
                records,
                lagMillis);
    }
}
