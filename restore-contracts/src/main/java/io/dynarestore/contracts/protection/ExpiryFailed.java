package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Retention could not delete what expired (the vault refused or was unreachable): it is tried again
 * at the next round, and what it could not delete stays listed and restorable meanwhile.
 */
public record ExpiryFailed(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String reason)
        implements ProtectionEvent {

    public static ExpiryFailed of(String account, String region, String table, String reason) {
        return new ExpiryFailed(Envelope.newEventId(), SCHEMA_VERSION, Envelope.now(), account, region, table, reason);
    }
}
