package io.dynarestore.contracts.status;

import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.ScopeDescription;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Folds the status events of one restore, in log order, into a summary. Rules: a terminal state
 * never changes; a segment counts once however often it completes; items written are the
 * completed segments' counts plus the latest progress of segments still being written, or what
 * an import loaded. Capacity events are folded even after the end, since capacity raised for a
 * restore is put back whatever became of it.
 * Once a restore ends, only its request's {@link RestoreRequested#outline() outline} and
 * {@link RestoreRequested#substanceDigest() digest} are kept, so that many ended restores take
 * little memory.
 * Not thread-safe: one thread folds, readers read it between events.
 */
public final class RestoreView {

    final String restoreId;
    RestoreState state;
    RestoreRequested request;
    String requestDigest;
    /** The request's filters in words (null: the whole table), kept after the outline drops them. */
    String recordFilters;

    String principal;
    Instant pointInTime;
    List<String> warnings;
    RestorePlanned plan;
    TableRef destination;
    final SegmentTally segments = new SegmentTally();
    RestoreProgressed progress;
    boolean dispatched;
    boolean deltaDispatched;
    RejectionCode code;
    String reason;
    Long finalItems;
    Instant createdAt;
    Instant updatedAt;
    final List<Milestone> timeline = new ArrayList<>();
    CapacityRaiseStarted capacityRaised;
    CapacityRestored capacityRestored;
    ImportStaged importStaged;
    ImportStarted importStarted;
    ImportCompleted importCompleted;
    SnapRestoreStarted snapStarted;
    ExportCompleted exportCompleted;
    CancellationStarted cancellation;
    Verification verification;
    /** The conflicts the end event reported, which replace those summed so far. */
    RestorePlanned.Conflicts finalConflicts;

    RollbackStarted rollbackStarted;
    RestoreEvent rollbackEnd;

    public RestoreView(String restoreId) {
        this.restoreId = restoreId;
    }

    /** A view of a request that no status event has answered yet. */
    public static RestoreView requested(RestoreRequested request) {
        var view = new RestoreView(request.restoreId());
        view.state = RestoreState.REQUESTED;
        view.keep(request);
        view.createdAt = request.occurredAt();
        view.updatedAt = request.occurredAt();
        return view;
    }

    /** Folds {@code event} by the rules of {@link RestoreFold}. */
    public void apply(RestoreEvent event) {
        RestoreFold.apply(this, event);
    }

    public String restoreId() {
        return restoreId;
    }

    public RestoreState state() {
        return state;
    }

    /** The request, redacted while the restore runs, and only its outline once it ended. */
    public RestoreRequested request() {
        return request;
    }

    /**
     * Keeps {@code request} redacted, with what outlives its outline at the restore's end: the digest that
     * tells a resubmission, and the filters in words.
     */
    void keep(RestoreRequested request) {
        this.request = request == null ? null : request.redacted();
        this.requestDigest = request == null ? null : request.substanceDigest();
        this.recordFilters = request == null ? null : ScopeDescription.of(request.scope());
    }

    /** A record restore's filters in words ({@link ScopeDescription}); null for a whole table. */
    public String recordFilters() {
        return recordFilters;
    }

    /** Whether {@code other} asks for the same restore as this one did (compared by digest, also after its end). */
    public boolean sameRequest(RestoreRequested other) {
        return requestDigest != null && other != null && requestDigest.equals(other.substanceDigest());
    }

    /** Who submitted the restore, authenticated ({@code RestoreAccepted.principal}); {@code null} before acceptance. */
    public String principal() {
        return principal;
    }

    /** When the restore last changed: its last event's time. */
    public Instant updatedAt() {
        return updatedAt;
    }

    /**
     * Whether the restore ended before {@code cutoff} (its last event is older): the rule by which
     * every reader of {@code restore.status} forgets ended restores, and takes an id used again
     * after that as a new restore.
     */
    public boolean endedBefore(Instant cutoff) {
        return state != null && state.terminal() && updatedAt != null && updatedAt.isBefore(cutoff);
    }

    /** Where the items go: the plan's table, then the table as prepared or completed. */
    public TableRef destination() {
        return destination;
    }

    /** The plan, once the planner made one. */
    public RestorePlanned plan() {
        return plan;
    }

    /** Whether the work items of every segment (or of the base, for a phased restore) were published. */
    public boolean dispatched() {
        return dispatched;
    }

    /** Whether the delta's work items were published (always with the base unless the restore is phased). */
    public boolean deltaDispatched() {
        return deltaDispatched;
    }

    /** Segments that completed (each once), with their counts. */
    public Map<Integer, SegmentCounts> completedSegments() {
        return segments.completed();
    }

    /** Segments that failed for good, with the reasons. */
    public Map<Integer, String> failedSegments() {
        return segments.failed();
    }

    public long itemsDeleted() {
        return segments.sumOfCompleted(SegmentCompleted.Counts::deleted);
    }

    public long itemsOverwritten() {
        return segments.sumOfCompleted(SegmentCompleted.Counts::overwritten);
    }

    public long itemsUnchanged() {
        return segments.sumOfCompleted(SegmentCompleted.Counts::unchanged);
    }

    /** The point in time the restore resolved to, for point-in-time restores. */
    public Instant pointInTime() {
        return pointInTime;
    }

    public long bytesWritten() {
        if (exportCompleted != null) {
            return exportCompleted.bytes(); // the file's bytes, in place of its staged parts'
        }
        long sum = importCompleted == null ? 0 : importCompleted.bytesProcessed();
        return sum + segments.bytesWritten();
    }

    public Instant createdAt() {
        return createdAt;
    }

    public long itemsWritten() {
        if (finalItems != null) {
            return finalItems;
        }
        if (exportCompleted != null) {
            return exportCompleted.items(); // the file's rows, in place of what its parts staged (capped or not)
        }
        long sum = importCompleted == null ? 0 : importCompleted.itemsImported();
        return sum + segments.itemsWritten();
    }

    /** Write units the writers reported consuming (completed segments, and the latest progress of the others). */
    public long wcuConsumed() {
        return segments.wcuConsumed();
    }

    /** Throttled calls the writers reported, as of each segment's latest progress. */
    public long throttles() {
        return segments.throttles();
    }

    /** The planner's latest progress report (rates and ETA) while the restore runs; {@code null} once it ended. */
    public RestoreProgressed progress() {
        return state != null && state.terminal() ? null : progress;
    }

    /** The warnings of the acceptance, replaced by the plan's when it has any. */
    public List<String> warnings() {
        return warnings;
    }

    /** Why the restore was rejected, failed or cancelled. */
    public String reason() {
        return reason;
    }

    /** The code of a rejection. */
    public RejectionCode code() {
        return code;
    }

    /** The state changes so far, oldest first, with the cancel and rollback events among them. */
    public List<Milestone> timeline() {
        return List.copyOf(timeline);
    }

    /** The rollback started last, if any. */
    public RollbackStarted rollbackStarted() {
        return rollbackStarted;
    }

    /** How that rollback ended ({@link RollbackCompleted} or {@link RollbackFailed}); {@code null} while it runs. */
    public RestoreEvent rollbackEnd() {
        return rollbackEnd;
    }

    /** The cancel the planner took, if any. */
    public CancellationStarted cancellation() {
        return cancellation;
    }

    /** Segments stopped by a cancel (each once), with their item and byte counts. */
    public Map<Integer, SegmentCounts> cancelledSegments() {
        return segments.cancelled();
    }

    /** The checks the writers reported with each completed segment (the first completion of each). */
    public Map<Integer, SegmentCompleted.Check> segmentChecks() {
        return segments.checks();
    }

    /**
     * The keys an undo of a window left as they are or took back although written after it: the
     * plan's, and those its writers found changed when a strict undo wrote; {@code null}: none.
     */
    public RestorePlanned.Conflicts conflicts() {
        if (finalConflicts != null) {
            return finalConflicts;
        }
        RestorePlanned.Conflicts planned = plan == null ? null : plan.conflicts();
        return planned == null ? segments.conflicts() : planned.plus(segments.conflicts());
    }

    /** What a dry run found so far (the sum of its completed segments), or at its end. */
    public Diff diff() {
        return segments.diff();
    }

    /** Whether the request is a dry run. */
    public boolean dryRun() {
        return request != null && request.dry();
    }

    public Verification verification() {
        return verification;
    }

    /** Whether a rollback was started and has not ended. */
    public boolean rollingBack() {
        return rollbackStarted != null && rollbackEnd == null;
    }

    /** The raise of the destination's write capacity, with the original values, if one was started. */
    public CapacityRaiseStarted capacityRaised() {
        return capacityRaised;
    }

    /** Whether capacity was raised for this restore and is not yet put back. */
    public boolean capacityToPutBack() {
        return capacityRaised != null && capacityRestored == null;
    }

    public ImportStaged importStaged() {
        return importStaged;
    }

    public ImportStarted importStarted() {
        return importStarted;
    }

    public ImportCompleted importCompleted() {
        return importCompleted;
    }

    /** The granular-recovery file, once the exporter wrote it. */
    public ExportCompleted exportCompleted() {
        return exportCompleted;
    }

    public SnapRestoreStarted snapStarted() {
        return snapStarted;
    }

    /** A state change, with the event that caused it. */
    public record Milestone(RestoreState state, String event, Instant at) {}
}
