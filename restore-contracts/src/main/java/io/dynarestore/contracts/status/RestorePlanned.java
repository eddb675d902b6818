package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The planner resolved the source and chose how to restore: the strategy, the destination, the
 * number of segments and the estimates. WCU counts one unit per started KB of each item.
 */
public record RestorePlanned(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                             Strategy strategy, SourceRef source, TableRef destination, int segments,
                             long estimatedItems, long estimatedBytes, long estimatedWcu) implements RestoreEvent {

    public static RestorePlanned of(String restoreId, Strategy strategy, SourceRef source, TableRef destination,
                                    int segments, long items, long bytes, long wcu) {
        return new RestorePlanned(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), strategy, source,
                destination, segments, items, bytes, wcu);
    }

    /** How items reach the destination. */
    public enum Strategy { ITEM_WRITES, IMPORT_FROM_S3, SNAP }
}
