package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The planner resolved the source and chose how to restore: the strategy and why, the
 * destination, the number of segments and the estimates. WCU counts ceil(size / 1 KB) per item,
 * plus the same again for each LSI that projects it; the duration is at the configured write
 * budget (ITEM_WRITES) or import rate (IMPORT_FROM_S3). {@code capacity} says what happens to an
 * existing provisioned table's write capacity. {@code warnings} say what the restore will change in a table that holds items, and how to undo it
 * (overwriting or deleting items of an existing table).
 */
public record RestorePlanned(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        Strategy strategy,
        String strategyReason,
        SourceRef source,
        TableRef destination,
        int segments,
        int deltaSegments,
        boolean phased,
        long estimatedItems,
        long estimatedBytes,
        long estimatedWcu,
        Double estimatedImportGb,
        Long estimatedDurationSeconds,
        CapacityPlan capacity,
        List<String> warnings,
        Conflicts conflicts)
        implements RestoreEvent {

    /**
     * The keys an undo of a window found written again after it (ADR 0031): each is left as it is
     * ({@code LEAVE}) or taken back to the window's start too ({@code OVERWRITE}).
     *
     * @param count      how many
     * @param onConflict what the undo does with them
     * @param samples    a few of them, each with its image at the window's start and its latest one
     */
    public record Conflicts(long count, String onConflict, List<Conflict> samples) {

        /** Samples one report keeps, at most. */
        public static final int MAX_SAMPLES = 10;

        /** These and {@code more}: the counts summed, this one's samples first, then more's, up to {@link #MAX_SAMPLES}. */
        public Conflicts plus(Conflicts more) {
            if (more == null) {
                return this;
            }
            var kept = new ArrayList<Conflict>(samples == null ? List.of() : samples);
            for (Conflict c : more.samples == null ? List.<Conflict>of() : more.samples) {
                if (kept.size() >= MAX_SAMPLES) {
                    break;
                }
                kept.add(c);
            }
            return new Conflicts(count + more.count, onConflict, List.copyOf(kept));
        }
    }

    /**
     * One conflicting key, its images as DynamoDB JSON.
     *
     * @param key     the key
     * @param before  its image at the window's start; {@code null}: it did not exist
     * @param latest  its latest image in the change log; {@code null}: deleted
     */
    public record Conflict(String key, String before, String latest) {}

    /** A plan of base segments only (a restore of a backup). */
    public static RestorePlanned of(
            String restoreId,
            Strategy strategy,
            SourceRef source,
            TableRef destination,
            int segments,
            long items,
            long bytes,
            long wcu) {
        return of(restoreId, strategy, source, destination, segments, 0, false, items, bytes, wcu, null);
    }

    /**
     * @param segments      all segments: the base's first, then {@code deltaSegments} of the delta
     * @param phased        whether the delta is written only after the whole base (when its key
     *                      set is too large for writers to hold; see ADR 0006)
     */
    public static RestorePlanned of(
            String restoreId,
            Strategy strategy,
            SourceRef source,
            TableRef destination,
            int segments,
            int deltaSegments,
            boolean phased,
            long items,
            long bytes,
            long wcu,
            List<String> warnings) {
        return new RestorePlanned(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                strategy,
                null,
                source,
                destination,
                segments,
                deltaSegments,
                phased,
                items,
                bytes,
                wcu,
                null,
                null,
                null,
                warnings == null || warnings.isEmpty() ? null : List.copyOf(warnings),
                null);
    }

    /** This plan with the reason for its strategy and its import and duration estimates. */
    public RestorePlanned withEstimates(String reason, Double importGb, Long durationSeconds) {
        return copy(reason, importGb, durationSeconds, capacity, conflicts);
    }

    /** This plan with what it does to the destination's write capacity. */
    public RestorePlanned withCapacity(CapacityPlan plan) {
        return copy(strategyReason, estimatedImportGb, estimatedDurationSeconds, plan, conflicts);
    }

    /** This plan with the conflicts of an undo. */
    public RestorePlanned withConflicts(Conflicts found) {
        return copy(strategyReason, estimatedImportGb, estimatedDurationSeconds, capacity, found);
    }

    /** This plan with its reason, estimates, capacity and conflicts replaced. */
    private RestorePlanned copy(
            String strategyReason,
            Double estimatedImportGb,
            Long estimatedDurationSeconds,
            CapacityPlan capacity,
            Conflicts conflicts) {
        return new RestorePlanned(
                eventId,
                restoreId,
                schemaVersion,
                occurredAt,
                strategy,
                strategyReason,
                source,
                destination,
                segments,
                deltaSegments,
                phased,
                estimatedItems,
                estimatedBytes,
                estimatedWcu,
                estimatedImportGb,
                estimatedDurationSeconds,
                capacity,
                warnings,
                conflicts);
    }

    /** Segments of the base backup: numbers {@code 0 .. baseSegments() - 1}. */
    public int baseSegments() {
        return segments - deltaSegments;
    }

    /** How items reach the destination. */
    public enum Strategy {
        /** Item-writers put every item (and delete what must go) through the table's write capacity. */
        ITEM_WRITES,
        /** DynamoDB ImportTable creates the new table from a staged copy; no write capacity is used. */
        IMPORT_FROM_S3,
        /** DynamoDB RestoreTableFromBackup restores an AWS-native backup (a Snap) into a new table. */
        SNAP,
        /** Granular recovery: the exporter writes the matching items to a CSV file; no table is written. */
        FILE_EXPORT
    }
}
