package io.dynarestore.planner.restore;

import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreView;
import java.util.HashSet;
import java.util.Set;

/**
 * A restore whose status partition this planner owns: its folded view, and whether a step is
 * under way for it (at most one at a time). Events a step emitted are folded at once and
 * skipped when they come back from the status topic.
 */
final class TrackedRestore {

    final String restoreId;
    final RestoreView view;
    boolean stepInFlight;
    /** What the last RestoreProgressed said, and when (nanoTime; 0 before the first). */
    long progressItems;

    long progressWcu;
    long progressAt;
    private final Set<String> appliedLocally = new HashSet<>();

    TrackedRestore(String restoreId) {
        this.restoreId = restoreId;
        this.view = new RestoreView(restoreId);
    }

    /** Folds an event emitted by this planner, before it is read back. */
    void applyLocal(RestoreEvent event) {
        appliedLocally.add(event.eventId());
        view.apply(event);
    }

    /** Folds an event read from the status topic, unless it was folded already. */
    void applyFromLog(RestoreEvent event) {
        if (!appliedLocally.remove(event.eventId())) {
            view.apply(event);
        }
    }
}
