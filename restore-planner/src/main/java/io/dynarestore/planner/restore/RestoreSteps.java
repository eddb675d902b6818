package io.dynarestore.planner.restore;

import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.CapacityRaiseStarted;
import io.dynarestore.contracts.status.Diff;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.ImportCompleted;
import io.dynarestore.contracts.status.ImportStaged;
import io.dynarestore.contracts.status.ImportStarted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestorePlanned.Strategy;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentCounts;
import io.dynarestore.contracts.status.SnapRestoreStarted;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.core.kafka.EventPublisher;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The steps of a restore, each a function of its folded view that publishes the events that move
 * it on: {@link #next} says which step a view needs, {@link #run} hands it to the collaborator
 * that does it (planning, preparation, dispatching, completion, native restores, cancellation,
 * rollback, the capacity put-back). Each step is safe to run again after a crash: planning is
 * pure (staging a delta or an import again overwrites it), table creation is idempotent by tag,
 * an import by its client token, a Snap restore by the backup the table was restored from,
 * segments dispatched twice are written twice (puts are idempotent) and counted once, a capacity
 * raise is recorded before it is made and raising again is a no-op. A step that waits on DynamoDB
 * (an import, a Snap restore, a refused put-back) returns {@link Outcome#later} and is taken again
 * after a pause.
 */
record RestoreSteps(
        Planning planning,
        Preparation preparation,
        Dispatching dispatching,
        Completion completion,
        NativeRestores natives,
        Cancellation cancellation,
        Rollbacks rollbacks,
        CapacityPutBack putBack,
        EventPublisher publisher) {

    enum Step {
        PLAN,
        PREPARE_DESTINATION,
        DISPATCH,
        DISPATCH_DELTA,
        COMPLETE,
        FAIL,
        STAGE_IMPORT,
        START_IMPORT,
        AWAIT_IMPORT,
        START_SNAP,
        AWAIT_SNAP,
        PUT_BACK_CAPACITY,
        DISPATCH_EXPORT,
        DISPATCH_EXPORT_MERGE,
        CANCEL,
        ROLLBACK
    }

    /** What a step published, and whether to take the restore's next step again after a pause. */
    record Outcome(List<RestoreEvent> events, Duration again) {
        static Outcome of(RestoreEvent... events) {
            return new Outcome(List.of(events), null);
        }

        static Outcome later(Duration pause, RestoreEvent... events) {
            return new Outcome(List.of(events), pause);
        }
    }

    /** The step a restore in this state needs next, or {@code null} when it waits for others. */
    static Step next(RestoreView view) {
        if (view.state() == null || view.request() == null) {
            return null;
        }
        if (view.state().terminal()) {
            // capacity raised for a restore goes back whatever became of it
            return view.capacityToPutBack() ? Step.PUT_BACK_CAPACITY : view.rollingBack() ? Step.ROLLBACK : null;
        }
        if (view.cancellation() != null) {
            return Step.CANCEL; // before any other step: nothing more is dispatched
        }
        RestorePlanned plan = view.plan();
        switch (view.state()) {
            case ACCEPTED:
                return Step.PLAN;
            case PLANNED:
                if (plan.strategy() == Strategy.FILE_EXPORT) {
                    return view.dispatched() ? null : Step.DISPATCH_EXPORT;
                }
                if (plan.strategy() == Strategy.IMPORT_FROM_S3) {
                    return view.importStaged() == null
                            ? Step.STAGE_IMPORT
                            : view.importStarted() == null ? Step.START_IMPORT : Step.AWAIT_IMPORT;
                }
                if (plan.strategy() == Strategy.SNAP) {
                    return view.snapStarted() == null ? Step.START_SNAP : Step.AWAIT_SNAP;
                }
                return Step.PREPARE_DESTINATION;
            case RUNNING:
                if (plan.strategy() == Strategy.FILE_EXPORT) {
                    return exportStep(view, plan);
                }
                if (plan.strategy() != Strategy.ITEM_WRITES) {
                    return Step.COMPLETE; // DynamoDB filled the table
                }
                if (!view.dispatched()) {
                    return Step.DISPATCH;
                }
                if (!view.failedSegments().isEmpty()) {
                    return Step.FAIL;
                }
                if (!view.deltaDispatched()) {
                    long baseDone = view.completedSegments().keySet().stream()
                            .filter(s -> s < plan.baseSegments())
                            .count();
                    return baseDone >= plan.baseSegments() ? Step.DISPATCH_DELTA : null;
                }
                return view.completedSegments().size() >= plan.segments() ? Step.COMPLETE : null;
            default:
                return null;
        }
    }

    /** A running export: a split one merges once every part has completed (ADR 0041). */
    private static Step exportStep(RestoreView view, RestorePlanned plan) {
        if (!view.failedSegments().isEmpty()) {
            return Step.FAIL;
        }
        if (view.exportCompleted() != null) {
            return Step.COMPLETE;
        }
        long parts = view.completedSegments().keySet().stream()
                .filter(s -> s < plan.baseSegments())
                .count();
        return plan.phased() && !view.deltaDispatched() && parts >= plan.baseSegments()
                ? Step.DISPATCH_EXPORT_MERGE
                : null;
    }

    /**
     * What a step may read of a restore: taken on the loop thread, so that steps on other threads
     * never see the view change under them.
     */
    record Snapshot(
            String restoreId,
            RestoreRequested request,
            Instant pointInTime,
            RestorePlanned plan,
            SegmentCompleted.Counts counts,
            long bytesWritten,
            Instant createdAt,
            Map<Integer, String> failedSegments,
            CapacityRaiseStarted capacityRaised,
            ImportStaged importStaged,
            ImportStarted importStarted,
            ImportCompleted importCompleted,
            SnapRestoreStarted snapStarted,
            Cancel cancel,
            Map<Integer, SegmentCounts> completedSegments,
            Map<Integer, SegmentCompleted.Check> checks,
            Diff diff,
            ExportCompleted exportCompleted,
            RestorePlanned.Conflicts conflicts) {
        static Snapshot of(RestoreView view) {
            return new Snapshot(
                    view.restoreId(),
                    view.request(),
                    view.pointInTime(),
                    view.plan(),
                    new SegmentCompleted.Counts(
                            view.itemsWritten(),
                            view.itemsOverwritten(),
                            view.itemsUnchanged(),
                            view.itemsDeleted(),
                            0),
                    view.bytesWritten(),
                    view.createdAt(),
                    new TreeMap<>(view.failedSegments()),
                    view.capacityRaised(),
                    view.importStaged(),
                    view.importStarted(),
                    view.importCompleted(),
                    view.snapStarted(),
                    Cancel.of(view),
                    new TreeMap<>(view.completedSegments()),
                    new TreeMap<>(view.segmentChecks()),
                    view.diff(),
                    view.exportCompleted(),
                    view.conflicts());
        }

        boolean dryRun() {
            return request != null && request.dry();
        }

        long itemsWritten() {
            return counts.written();
        }
    }

    /**
     * What a cancel needs to know: when it was taken, how many segments went out to writers, how
     * many of them reported an end (completed, failed or stopped), and where items went.
     */
    record Cancel(Instant at, int dispatched, int ended, boolean tablePrepared, TableRef destination) {
        static Cancel of(RestoreView view) {
            if (view.cancellation() == null) {
                return null;
            }
            RestorePlanned plan = view.plan();
            int dispatched = plan == null || !view.dispatched()
                    ? 0
                    : view.deltaDispatched() ? plan.segments() : plan.baseSegments();
            var ended = new HashSet<Integer>(view.completedSegments().keySet());
            ended.addAll(view.failedSegments().keySet());
            ended.addAll(view.cancelledSegments().keySet());
            return new Cancel(
                    view.cancellation().occurredAt(),
                    dispatched,
                    ended.size(),
                    view.state() == RestoreState.RUNNING,
                    view.destination());
        }
    }

    /** Runs a step and returns what it published. */
    Outcome run(Step step, Snapshot view) {
        RestoreRequested request = view.request();
        return switch (step) {
            case PLAN -> Outcome.of(publish(publisher, planning.plan(request, view.pointInTime(), view.createdAt())));
            case PREPARE_DESTINATION -> preparation.prepare(view);
            case DISPATCH -> Outcome.of(publish(publisher, dispatching.dispatch(request, view.plan(), false)));
            case DISPATCH_DELTA -> Outcome.of(publish(publisher, dispatching.dispatch(request, view.plan(), true)));
            case COMPLETE -> Outcome.of(publish(publisher, completion.complete(view)));
            case FAIL -> Outcome.of(publish(publisher, failure(view)));
            case STAGE_IMPORT -> Outcome.of(publish(publisher, natives.stageImport(view)));
            case START_IMPORT -> Outcome.of(publish(publisher, natives.startImport(view)));
            case AWAIT_IMPORT -> natives.awaitImport(view);
            case START_SNAP -> natives.startSnap(view);
            case AWAIT_SNAP -> natives.awaitSnap(view);
            case PUT_BACK_CAPACITY -> putBack.putBack(view);
            case DISPATCH_EXPORT -> Outcome.of(publish(publisher, dispatching.dispatchExport(view)));
            case DISPATCH_EXPORT_MERGE -> Outcome.of(publish(publisher, dispatching.dispatchExportMerge(view)));
            case CANCEL -> cancellation.cancel(view);
            case ROLLBACK -> rollbacks.rollback(view);
        };
    }

    /** The failure of a restore one of whose segments could not be written. */
    private static RestoreFailed failure(Snapshot view) {
        var failed = view.failedSegments().entrySet().iterator().next();
        return RestoreFailed.of(
                view.restoreId(),
                "Segment " + failed.getKey() + " of " + view.plan().segments()
                        + " could not be written: " + failed.getValue() + ". Items already written stay in "
                        + view.plan().destination().tableName() + ".",
                view.itemsWritten());
    }

    /** Publishes {@code event} on restore.status, and returns it. */
    static <E extends RestoreEvent> E publish(EventPublisher publisher, E event) {
        publisher.status(event);
        return event;
    }

    /** A step cannot go on; the message is the restore's failure reason. */
    static final class StepException extends RuntimeException {
        StepException(String message) {
            super(message);
        }
    }
}
