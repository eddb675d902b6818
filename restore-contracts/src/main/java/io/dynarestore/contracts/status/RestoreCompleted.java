package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Every segment is written, and the verification passed. {@code itemsWritten} counts each item
 * of the source once. A dry run ({@code dryRun}) wrote nothing: {@code diff} says what the
 * restore would do.
 */
public record RestoreCompleted(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        TableRef destination,
        long itemsWritten,
        long itemsOverwritten,
        long itemsUnchanged,
        long itemsDeleted,
        long bytesWritten,
        int segments,
        long durationMs,
        Boolean dryRun,
        Diff diff,
        Verification verification,
        RestorePlanned.Conflicts conflicts)
        implements RestoreEvent {

    public static RestoreCompleted of(
            String restoreId, TableRef destination, long items, long bytes, int segments, long durationMs) {
        return of(restoreId, destination, new SegmentCompleted.Counts(items, 0, 0, 0, 0), bytes, segments, durationMs);
    }

    public static RestoreCompleted of(
            String restoreId,
            TableRef destination,
            SegmentCompleted.Counts counts,
            long bytes,
            int segments,
            long durationMs) {
        return new RestoreCompleted(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                destination,
                counts.written(),
                counts.overwritten(),
                counts.unchanged(),
                counts.deleted(),
                bytes,
                segments,
                durationMs,
                null,
                null,
                null,
                null);
    }

    /** This completion with the verification it passed. */
    public RestoreCompleted verified(Verification verification) {
        return copy(dryRun, diff, verification, conflicts);
    }

    /** This completion with the keys an undo left as they are or took back although written after its window. */
    public RestoreCompleted withConflicts(RestorePlanned.Conflicts conflicts) {
        return copy(dryRun, diff, verification, conflicts);
    }

    /** This completion as the end of a dry run that found {@code diff}. */
    public RestoreCompleted dryRun(Diff diff) {
        return copy(true, diff, verification, conflicts);
    }

    /** This completion with what follows its counts replaced. */
    private RestoreCompleted copy(
            Boolean dryRun, Diff diff, Verification verification, RestorePlanned.Conflicts conflicts) {
        return new RestoreCompleted(
                eventId,
                restoreId,
                schemaVersion,
                occurredAt,
                destination,
                itemsWritten,
                itemsOverwritten,
                itemsUnchanged,
                itemsDeleted,
                bytesWritten,
                segments,
                durationMs,
                dryRun,
                diff,
                verification,
                conflicts);
    }
}
