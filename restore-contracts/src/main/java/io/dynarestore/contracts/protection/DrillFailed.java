package io.dynarestore.contracts.protection;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * A restore drill failed: its restore failed or was refused, its verification failed, or the backup was over the drill's budget; the reason says which. Its scratch table, if made, is deleted.
 *
 * @param drillId      the drill's slot, as an id ({@code <stamp>-drill})
 * @param restore      the id of the restore the drill asked for
 * @param source       what it restored: {@code backup <id>} or {@code second <ISO-8601>}
 * @param scratchTable the table it restored into
 * @param tookMs       from the request to the restore's end
 * @param items        items the restore wrote and verified
 */
public record DrillFailed(
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
        Long items,
        String reason)
        implements ProtectionEvent {

    public static DrillFailed of(
            String account,
            String region,
            String table,
            String drillId,
            String restore,
            String source,
            String scratchTable,
            Long tookMs,
            Long items,
            String reason) {
        return new DrillFailed(
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
                items,
                reason);
    }
}
