package io.dynarestore.contracts.status;

import java.util.Map;

/**
 * How each status event changes a {@link RestoreView}. Rules: a terminal state never changes;
 * capacity and rollback events are folded also after the end (capacity raised for a restore is
 * put back whatever became of it; a rollback follows the end, and one that failed may be started
 * again); only a request never accepted can be rejected; segments count as {@link SegmentTally}
 * says. Every {@link RestoreEvent} subtype has a rule here.
 */
final class RestoreFold {

    private RestoreFold() {}

    static void apply(RestoreView view, RestoreEvent event) {
        if (view.createdAt == null) {
            view.createdAt = event.occurredAt();
        }
        view.updatedAt = event.occurredAt();
        Fold<RestoreEvent> afterEnd = AFTER_THE_END.get(event.getClass());
        if (afterEnd != null) {
            afterEnd.apply(view, event);
        } else if (view.state == null || !view.state.terminal()) {
            WHILE_OPEN.getOrDefault(event.getClass(), (v, e) -> {}).apply(view, event);
        }
    }

    /** Whether a view folds events of {@code type} (every {@link RestoreEvent} subtype must be). */
    static boolean folds(Class<?> type) {
        return AFTER_THE_END.containsKey(type) || WHILE_OPEN.containsKey(type);
    }

    /** How one event type changes a view. */
    @FunctionalInterface
    private interface Fold<E extends RestoreEvent> {
        void apply(RestoreView view, E event);
    }

    /** Folded whatever the state: capacity raised for a restore is put back, and rollbacks follow the end. */
    private static final Map<Class<?>, Fold<RestoreEvent>> AFTER_THE_END = Map.ofEntries(
            on(CapacityRaiseStarted.class, RestoreFold::capacityRaiseStarted),
            on(CapacityRestored.class, (view, e) -> view.capacityRestored = e),
            on(RollbackStarted.class, RestoreFold::rollbackStarted),
            on(RollbackCompleted.class, RestoreFold::rollbackEnded),
            on(RollbackFailed.class, RestoreFold::rollbackEnded));

    /** Folded until the restore reaches a terminal state, ignored after it. */
    private static final Map<Class<?>, Fold<RestoreEvent>> WHILE_OPEN = Map.ofEntries(
            on(RestoreAccepted.class, RestoreFold::accepted),
            on(RestoreRejected.class, RestoreFold::rejected),
            on(RestorePlanned.class, RestoreFold::planned),
            on(DestinationReady.class, (view, e) -> {
                view.destination = e.table();
                moveTo(view, RestoreState.RUNNING, e);
            }),
            on(SegmentsDispatched.class, RestoreFold::dispatched),
            on(SegmentProgressed.class, (view, e) -> view.segments.progressed(e)),
            on(SegmentCompleted.class, (view, e) -> view.segments.completed(e)),
            on(SegmentFailed.class, (view, e) -> view.segments.failed(e)),
            on(SegmentCancelled.class, (view, e) -> view.segments.cancelled(e)),
            // derived by the planner from the segment events already folded; only its rates are new
            on(RestoreProgressed.class, (view, e) -> view.progress = e),
            on(ImportStaged.class, (view, e) -> view.importStaged = e),
            on(ImportStarted.class, (view, e) -> view.importStarted = e),
            on(ImportCompleted.class, (view, e) -> view.importCompleted = e),
            on(SnapRestoreStarted.class, (view, e) -> view.snapStarted = e),
            on(ExportCompleted.class, (view, e) -> view.exportCompleted = e),
            on(CancellationStarted.class, RestoreFold::cancellationStarted),
            on(RestoreCompleted.class, RestoreFold::completed),
            on(RestoreFailed.class, RestoreFold::failed),
            on(RestoreCancelled.class, (view, e) -> {
                view.reason = e.note();
                view.finalItems = e.itemsWritten();
                moveTo(view, RestoreState.CANCELLED, e);
            }));

    private static <E extends RestoreEvent> Map.Entry<Class<?>, Fold<RestoreEvent>> on(Class<E> type, Fold<E> fold) {
        return Map.entry(type, (view, event) -> fold.apply(view, type.cast(event)));
    }

    private static void capacityRaiseStarted(RestoreView view, CapacityRaiseStarted e) {
        if (view.capacityRaised == null) {
            view.capacityRaised = e; // the first carries the values from before any raise
        }
    }

    private static void rollbackStarted(RestoreView view, RollbackStarted e) {
        // a rollback follows the end; one that failed may be started again
        boolean again = view.rollbackStarted == null || view.rollbackEnd instanceof RollbackFailed;
        if (view.state != null && view.state.terminal() && again) {
            view.rollbackStarted = e;
            view.rollbackEnd = null;
            view.timeline.add(new RestoreView.Milestone(view.state, e.type(), e.occurredAt()));
        }
    }

    private static void rollbackEnded(RestoreView view, RestoreEvent e) {
        if (view.rollbackStarted != null && view.rollbackEnd == null) {
            view.rollbackEnd = e;
            view.timeline.add(new RestoreView.Milestone(view.state, e.type(), e.occurredAt()));
        }
    }

    private static void accepted(RestoreView view, RestoreAccepted e) {
        view.keep(e.request()); // redacted already: redacting again changes nothing
        view.principal = e.principal();
        view.pointInTime = e.pointInTime();
        view.warnings = e.warnings();
        moveTo(view, RestoreState.ACCEPTED, e);
    }

    private static void rejected(RestoreView view, RestoreRejected e) {
        if (view.state != null && view.state != RestoreState.REQUESTED) {
            return; // only a request that was never accepted can be rejected
        }
        view.code = e.code();
        view.reason = e.reason();
        moveTo(view, RestoreState.REJECTED, e);
    }

    private static void planned(RestoreView view, RestorePlanned e) {
        view.plan = e;
        view.destination = e.destination();
        if (e.warnings() != null) {
            view.warnings = e.warnings();
        }
        moveTo(view, RestoreState.PLANNED, e);
    }

    private static void dispatched(RestoreView view, SegmentsDispatched e) {
        if (view.state == RestoreState.PLANNED) {
            moveTo(view, RestoreState.RUNNING, e); // work without a table to prepare (a file export)
        }
        if (e.phase() == SegmentsDispatched.Phase.DELTA) {
            view.deltaDispatched = true;
        } else {
            view.dispatched = true;
            view.deltaDispatched |= e.phase() == null || e.phase() == SegmentsDispatched.Phase.ALL;
        }
    }

    private static void cancellationStarted(RestoreView view, CancellationStarted e) {
        if (view.cancellation == null) {
            view.cancellation = e;
            view.timeline.add(new RestoreView.Milestone(view.state, e.type(), e.occurredAt()));
        }
    }

    private static void completed(RestoreView view, RestoreCompleted e) {
        view.finalItems = e.itemsWritten();
        view.verification = e.verification();
        view.segments.endedWith(e.diff());
        view.finalConflicts = e.conflicts();
        view.destination = e.destination();
        moveTo(view, RestoreState.COMPLETED, e);
    }

    private static void failed(RestoreView view, RestoreFailed e) {
        view.reason = e.reason();
        view.verification = e.verification();
        view.finalItems = e.itemsWritten();
        moveTo(view, RestoreState.FAILED, e);
    }

    private static void moveTo(RestoreView view, RestoreState next, RestoreEvent cause) {
        view.state = next;
        view.timeline.add(new RestoreView.Milestone(next, cause.type(), cause.occurredAt()));
        if (next.terminal() && view.request != null) {
            view.request = view.request.outline(); // what rollbacks, authorization and the summary still need
        }
    }
}
