package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * A restore drill was not run, and that is no failure: the table is newly protected and its first
 * backup is still being taken (ADR 0047). No restore was asked for, no scratch table made, nobody alerted.
 * A table whose backups were taken and have all expired, or whose first backup never came, gets a
 * {@link DrillFailed} instead.
 *
 * @param drillId the drill's slot, as an id ({@code <stamp>-drill})
 * @param reason  why, for a person
 */
public record DrillSkipped(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String drillId,
        String reason)
        implements ProtectionEvent {

    public static DrillSkipped of(String account, String region, String table, String drillId, String reason) {
        return new DrillSkipped(
                Envelope.newEventId(), SCHEMA_VERSION, Envelope.now(), account, region, table, drillId, reason);
    }
}
