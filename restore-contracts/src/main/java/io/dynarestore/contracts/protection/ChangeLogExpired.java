package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** Retention deleted an incremental export that no kept backup needs. */
public record ChangeLogExpired(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String exportId,
        Instant to)
        implements ProtectionEvent {

    public static ChangeLogExpired of(String account, String region, String table, String exportId, Instant to) {
        return new ChangeLogExpired(
                Envelope.newEventId(), SCHEMA_VERSION, Envelope.now(), account, region, table, exportId, to);
    }
}
