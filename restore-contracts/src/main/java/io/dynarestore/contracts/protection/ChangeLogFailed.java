package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Recording the change log failed for now (a flush that could not be written, a native export that
 * failed): it is tried again from the last recorded export, so nothing is lost unless the source
 * trims it meanwhile, which a {@link ChangeLogGapped} would then tell.
 */
public record ChangeLogFailed(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        ChangeLogMethod method,
        String reason)
        implements ProtectionEvent {

    public static ChangeLogFailed of(
            String account, String region, String table, ChangeLogMethod method, String reason) {
        return new ChangeLogFailed(
                Envelope.newEventId(), SCHEMA_VERSION, Envelope.now(), account, region, table, method, reason);
    }
}
