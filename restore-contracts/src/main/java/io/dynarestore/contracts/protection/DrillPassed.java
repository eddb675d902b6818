package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * A restore drill passed: the drill's restore completed and its verification (counts, checksums, read-back) passed; its scratch table is deleted.
 *
 * @param drillId      the drill's slot, as an id ({@code <stamp>-drill})
 * @param restore      the id of the restore the drill asked for
 * @param source       what it restored: {@code backup <id>} or {@code second <ISO-8601>}
 * @param scratchTable the table it restored into
 * @param tookMs       from the request to the restore's end
 * @param items        items the restore wrote and verified
 */
public record DrillPassed(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String drillId,
        String restore,
        String source,
        String scratchTable,
        Long tookMs,
        Long items)
        implements ProtectionEvent {

    public static DrillPassed of(
            String account,
            String region,
            String table,
            String drillId,
            String restore,
            String source,
            String scratchTable,
            Long tookMs,
            Long items) {
        return new DrillPassed(
                Envelope.newEventId(),
                SCHEMA_VERSION,
                Envelope.now(),
                account,
                region,
                table,
                drillId,
                restore,
                source,
                scratchTable,
                tookMs,
                items);
    }
}
