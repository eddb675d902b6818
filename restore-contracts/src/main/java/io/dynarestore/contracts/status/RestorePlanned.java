package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.List;

/**
 * The planner resolved the source and chose how to restore: the strategy, the destination, the
 * number of segments and the estimates. WCU counts one unit per started KB of each item.
 * {@code warnings} say what cannot be undone (overwriting or deleting items of an existing table).
 */
public record RestorePlanned(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                             Strategy strategy, SourceRef source, TableRef destination, int segments,
                             int deltaSegments, boolean phased, long estimatedItems, long estimatedBytes,
                             long estimatedWcu, List<String> warnings) implements RestoreEvent {

    /** A plan of base segments only (a restore of a backup). */
    public static RestorePlanned of(String restoreId, Strategy strategy, SourceRef source, TableRef destination,
                                    int segments, long items, long bytes, long wcu) {
        return of(restoreId, strategy, source, destination, segments, 0, false, items, bytes, wcu, null);
    }

    /**
     * @param segments      all segments: the base's first, then {@code deltaSegments} of the delta
     * @param phased        whether the delta is written only after the whole base (when its key
     *                      set is too large for writers to hold; see ADR 0006)
     */
    public static RestorePlanned of(String restoreId, Strategy strategy, SourceRef source, TableRef destination,
                                    int segments, int deltaSegments, boolean phased, long items, long bytes,
                                    long wcu, List<String> warnings) {
        return new RestorePlanned(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), strategy, source,
                destination, segments, deltaSegments, phased, items, bytes, wcu,
                warnings == null || warnings.isEmpty() ? null : List.copyOf(warnings));
    }

    /** Segments of the base backup: numbers {@code 0 .. baseSegments() - 1}. */
    public int baseSegments() {
        return segments - deltaSegments;
    }

    /** How items reach the destination. */
    public enum Strategy { ITEM_WRITES, IMPORT_FROM_S3, SNAP }
}
