package io.dynarestore.contracts.status;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Source;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
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
 * Not thread-safe: one thread folds, readers take {@link #summary()} snapshots.
 */
public final class RestoreView {

    private final String restoreId;
    private RestoreState state;
    private RestoreRequested request;
    private String requestDigest;
    private String principal;
    private Instant pointInTime;
    private List<String> warnings;
    private RestorePlanned plan;
    private TableRef destination;
    private final Map<Integer, SegmentCounts> completed = new HashMap<>();
    private final Map<Integer, SegmentCounts> inFlight = new HashMap<>();
    private final Map<Integer, String> failedSegments = new HashMap<>();
    private boolean dispatched;
    private boolean deltaDispatched;
    private RejectionCode code;
    private String reason;
    private Long finalItems;
    private Instant createdAt;
    private Instant updatedAt;
    private final List<Milestone> timeline = new ArrayList<>();
    private CapacityRaiseStarted capacityRaised;
    private CapacityRestored capacityRestored;
    private ImportStaged importStaged;
    private ImportStarted importStarted;
    private ImportCompleted importCompleted;
    private SnapRestoreStarted snapStarted;
    private ExportCompleted exportCompleted;
    private CancellationStarted cancellation;
    private final Map<Integer, Long> wcu = new HashMap<>();
    private final Map<Integer, Long> throttles = new HashMap<>();
    private final Map<Integer, SegmentCounts> cancelled = new HashMap<>();
    private final Map<Integer, SegmentCompleted.Check> checks = new HashMap<>();
    private Diff diff;
    private Verification verification;
    private RollbackStarted rollbackStarted;
    private RestoreEvent rollbackEnd;

    public RestoreView(String restoreId) {
        this.restoreId = restoreId;
    }

    /** A view of a request that no status event has answered yet. */
    public static RestoreView requested(RestoreRequested request) {
        var view = new RestoreView(request.restoreId());
        view.state = RestoreState.REQUESTED;
        view.request = request.redacted();
        view.requestDigest = request.substanceDigest();
        view.createdAt = request.occurredAt();
        view.updatedAt = request.occurredAt();
        return view;
    }

    public void apply(RestoreEvent event) {
        if (createdAt == null) {
            createdAt = event.occurredAt();
        }
        updatedAt = event.occurredAt();
        if (event instanceof CapacityRaiseStarted e) {
            if (capacityRaised == null) {
                capacityRaised = e; // the first carries the values from before any raise
            }
            return;
        }
        if (event instanceof CapacityRestored e) {
            capacityRestored = e;
            return;
        }
        if (event instanceof RollbackStarted e) {
            // a rollback follows the end; one that failed may be started again
            if (state != null && state.terminal() && (rollbackStarted == null || rollbackEnd instanceof RollbackFailed)) {
                rollbackStarted = e;
                rollbackEnd = null;
                timeline.add(new Milestone(state, e.type(), e.occurredAt()));
            }
            return;
        }
        if (event instanceof RollbackCompleted || event instanceof RollbackFailed) {
            if (rollbackStarted != null && rollbackEnd == null) {
                rollbackEnd = event;
                timeline.add(new Milestone(state, event.type(), event.occurredAt()));
            }
            return;
        }
        if (state != null && state.terminal()) {
            return;
        }
        if (event instanceof RestoreAccepted e) {
            request = e.request();
            requestDigest = e.request() == null ? null : e.request().substanceDigest();
            principal = e.principal();
            pointInTime = e.pointInTime();
            warnings = e.warnings();
            moveTo(RestoreState.ACCEPTED, e);
        } else if (event instanceof RestoreRejected e) {
            if (state != null && state != RestoreState.REQUESTED) {
                return; // only a request that was never accepted can be rejected
            }
            code = e.code();
            reason = e.reason();
            moveTo(RestoreState.REJECTED, e);
        } else if (event instanceof RestorePlanned e) {
            plan = e;
            destination = e.destination();
            if (e.warnings() != null) {
                warnings = e.warnings();
            }
            moveTo(RestoreState.PLANNED, e);
        } else if (event instanceof DestinationReady e) {
            destination = e.table();
            moveTo(RestoreState.RUNNING, e);
        } else if (event instanceof SegmentsDispatched e) {
            if (state == RestoreState.PLANNED) {
                moveTo(RestoreState.RUNNING, e); // work without a table to prepare (a file export)
            }
            if (e.phase() == SegmentsDispatched.Phase.DELTA) {
                deltaDispatched = true;
            } else {
                dispatched = true;
                deltaDispatched |= e.phase() == null || e.phase() == SegmentsDispatched.Phase.ALL;
            }
        } else if (event instanceof SegmentProgressed e) {
            if (!completed.containsKey(e.segment())) {
                inFlight.put(e.segment(), SegmentCounts.written(e.itemsWritten(), e.bytesWritten()));
                if (e.wcuConsumed() != null) {
                    wcu.put(e.segment(), e.wcuConsumed());
                }
                if (e.throttles() != null) {
                    throttles.merge(e.segment(), e.throttles(), Math::max);
                }
            }
        } else if (event instanceof SegmentCompleted e) {
            inFlight.remove(e.segment());
            if (!completed.containsKey(e.segment())) {
                wcu.put(e.segment(), e.wcuConsumed());
            }
            if (completed.putIfAbsent(e.segment(), SegmentCounts.of(e)) == null) {
                if (e.check() != null) {
                    checks.put(e.segment(), e.check());
                }
                if (e.diff() != null) {
                    diff = (diff == null ? Diff.empty() : diff).plus(e.diff());
                }
            }
        } else if (event instanceof ImportStaged e) {
            importStaged = e;
        } else if (event instanceof ImportStarted e) {
            importStarted = e;
        } else if (event instanceof ImportCompleted e) {
            importCompleted = e;
        } else if (event instanceof SnapRestoreStarted e) {
            snapStarted = e;
        } else if (event instanceof ExportCompleted e) {
            exportCompleted = e;
        } else if (event instanceof SegmentFailed e) {
            failedSegments.put(e.segment(), e.reason());
        } else if (event instanceof RestoreCompleted e) {
            finalItems = e.itemsWritten();
            verification = e.verification();
            if (e.diff() != null) {
                diff = e.diff();
            }
            destination = e.destination();
            moveTo(RestoreState.COMPLETED, e);
        } else if (event instanceof RestoreFailed e) {
            reason = e.reason();
            verification = e.verification();
            finalItems = e.itemsWritten();
            moveTo(RestoreState.FAILED, e);
        } else if (event instanceof CancellationStarted e) {
            if (cancellation == null) {
                cancellation = e;
                timeline.add(new Milestone(state, e.type(), e.occurredAt()));
            }
        } else if (event instanceof SegmentCancelled e) {
            if (!completed.containsKey(e.segment())) {
                inFlight.remove(e.segment());
                cancelled.putIfAbsent(e.segment(), SegmentCounts.written(e.itemsWritten(), e.bytesWritten()));
            }
        } else if (event instanceof RestoreCancelled e) {
            reason = e.note();
            finalItems = e.itemsWritten();
            moveTo(RestoreState.CANCELLED, e);
        }
    }

    private void moveTo(RestoreState next, RestoreEvent cause) {
        state = next;
        timeline.add(new Milestone(next, cause.type(), cause.occurredAt()));
        if (next.terminal() && request != null) {
            request = request.outline(); // what rollbacks, authorization and the summary still need
        }
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
        return Collections.unmodifiableMap(completed);
    }

    /** Segments that failed for good, with the reasons. */
    public Map<Integer, String> failedSegments() {
        return Collections.unmodifiableMap(failedSegments);
    }

    public long itemsDeleted() {
        return sum(SegmentCompleted.Counts::deleted);
    }

    public long itemsOverwritten() {
        return sum(SegmentCompleted.Counts::overwritten);
    }

    public long itemsUnchanged() {
        return sum(SegmentCompleted.Counts::unchanged);
    }

    private long sum(java.util.function.ToLongFunction<SegmentCompleted.Counts> count) {
        long sum = 0;
        for (SegmentCounts c : completed.values()) {
            sum += count.applyAsLong(c.lines());
        }
        return sum;
    }

    /** The point in time the restore resolved to, for point-in-time restores. */
    public Instant pointInTime() {
        return pointInTime;
    }

    public long bytesWritten() {
        long sum = importCompleted == null ? 0 : importCompleted.bytesProcessed();
        sum += exportCompleted == null ? 0 : exportCompleted.bytes();
        for (SegmentCounts c : completed.values()) {
            sum += c.bytesWritten();
        }
        for (SegmentCounts c : cancelled.values()) {
            sum += c.bytesWritten();
        }
        return sum;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public long itemsWritten() {
        if (finalItems != null) {
            return finalItems;
        }
        long sum = importCompleted == null ? 0 : importCompleted.itemsImported();
        sum += exportCompleted == null ? 0 : exportCompleted.items();
        for (var segments : List.of(completed, inFlight, cancelled)) {
            for (SegmentCounts c : segments.values()) {
                sum += c.lines().written();
            }
        }
        return sum;
    }

    /** Write units the writers reported consuming (completed segments, and the latest progress of the others). */
    public long wcuConsumed() {
        long sum = 0;
        for (long w : wcu.values()) {
            sum += w;
        }
        return sum;
    }

    /** Throttled calls the writers reported, as of each segment's latest progress. */
    public long throttles() {
        long sum = 0;
        for (long t : throttles.values()) {
            sum += t;
        }
        return sum;
    }

    /** The cancel the planner took, if any. */
    public CancellationStarted cancellation() {
        return cancellation;
    }

    /** Segments stopped by a cancel (each once), with their item and byte counts. */
    public Map<Integer, SegmentCounts> cancelledSegments() {
        return Collections.unmodifiableMap(cancelled);
    }

    /** The checks the writers reported with each completed segment (the first completion of each). */
    public Map<Integer, SegmentCompleted.Check> segmentChecks() {
        return Collections.unmodifiableMap(checks);
    }

    /** What a dry run found so far (the sum of its completed segments), or at its end. */
    public Diff diff() {
        return diff;
    }

    /** Whether the request is a dry run. */
    public boolean dryRun() {
        return request != null && request.dry();
    }

    public Verification verification() {
        return verification;
    }

    /**
     * Why a restore cannot be rolled back now, or {@code null} when it can: it must have ended
     * (completed, failed or cancelled) after writing into an existing table or in place, not be a
     * dry run, and not be rolled back already or being rolled back.
     */
    public String rollbackRefusal() {
        if (state() == null || request() == null) {
            return "the restore is unknown";
        }
        if (!state().terminal()) {
            return "restore " + restoreId() + " is " + state() + "; cancel it first, then roll it back";
        }
        if (state() == RestoreState.REJECTED) {
            return "restore " + restoreId() + " was rejected and wrote nothing";
        }
        var destination = request().destination();
        if (destination instanceof Destination.File) {
            return "restore " + restoreId() + " wrote a file and changed no table";
        }
        if (destination instanceof Destination.NewTable) {
            return "restore " + restoreId() + " created its table, which has no undo journal; delete the table "
                    + "instead";
        }
        if (dryRun()) {
            return "restore " + restoreId() + " was a dry run and wrote nothing";
        }
        if (rollingBack()) {
            return "restore " + restoreId() + " is being rolled back already";
        }
        if (rollbackEnd instanceof RollbackCompleted) {
            return "restore " + restoreId() + " was rolled back already";
        }
        return null;
    }

    /** Whether a rollback was started and has not ended. */
    public boolean rollingBack() {
        return rollbackStarted != null && rollbackEnd == null;
    }

    public Summary summary() {
        return new Summary(restoreId, state, request == null ? null : request.source(), pointInTime,
                destination, plan == null ? null : plan.strategy(), plan == null ? null : plan.segments(),
                completed.size(), itemsWritten(), itemsOverwritten(), itemsUnchanged(), itemsDeleted(),
                plan == null ? null : plan.estimatedItems(), warnings, code, reason,
                failedSegments.isEmpty() ? null : Map.copyOf(failedSegments), createdAt, updatedAt,
                List.copyOf(timeline), fileInfo(), cancellation == null ? null : cancellation.occurredAt(),
                dryRun() ? Boolean.TRUE : null, diff, verification, rollbackInfo(), rollbackRefusal() == null,
                principal, request == null ? null : request.requestedBy());
    }

    private RollbackInfo rollbackInfo() {
        if (rollbackStarted == null) {
            return null;
        }
        if (rollbackEnd instanceof RollbackCompleted c) {
            return new RollbackInfo("COMPLETED", rollbackStarted.occurredAt(), c.occurredAt(), c.itemsRestored(),
                    c.itemsDeleted(), c.itemsUnchanged(), null);
        }
        if (rollbackEnd instanceof RollbackFailed f) {
            return new RollbackInfo("FAILED", rollbackStarted.occurredAt(), f.occurredAt(), null, null, null,
                    f.reason());
        }
        return new RollbackInfo("RUNNING", rollbackStarted.occurredAt(), null, null, null, null, null);
    }

    private FileInfo fileInfo() {
        ExportCompleted e = exportCompleted;
        if (e == null) {
            return null;
        }
        return new FileInfo("/restores/" + restoreId + "/download", e.items(), e.bytes(), e.sha256(), e.capped(),
                e.matching(), e.capped() ? "The export stopped at its cap of " + e.items() + " items; more items "
                + "match. Narrow the filter, or restore the records into a table." : null);
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
    public record Milestone(RestoreState state, String event, Instant at) {
    }

    /** An immutable snapshot of a restore, as the tasks API and dashboards show it. */
    public record Summary(String restoreId, RestoreState state, Source source,
                          Instant pointInTime, TableRef destination, RestorePlanned.Strategy strategy, Integer segments,
                          int segmentsCompleted, long itemsWritten, long itemsOverwritten, long itemsUnchanged,
                          long itemsDeleted, Long estimatedItems, List<String> warnings, RejectionCode code,
                          String reason, Map<Integer, String> failedSegments, Instant createdAt, Instant updatedAt,
                          List<Milestone> timeline, FileInfo file, Instant cancelRequestedAt, Boolean dryRun,
                          Diff diff, Verification verification, RollbackInfo rollback, boolean rollbackPossible,
                          String principal, String requestedBy) {
    }

    /**
     * The rollback of a restore: RUNNING, COMPLETED or FAILED, when it started and ended, and
     * what it put back (items restored to their prior image, items created by the restore and
     * deleted again, keys already as they were).
     */
    public record RollbackInfo(String state, Instant startedAt, Instant endedAt, Long itemsRestored,
                               Long itemsDeleted, Long itemsUnchanged, String reason) {
    }

    /**
     * A granular-recovery file: where to download it, its rows, size and SHA-256, and whether the
     * cap stopped it short of the {@code matching} items.
     */
    public record FileInfo(String download, long items, long bytes, String sha256, boolean capped, long matching,
                           String note) {
    }
}
