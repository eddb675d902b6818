package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.contracts.status.RollbackCompleted;

/**
 * Which restores may be rolled back, for the API (which answers 409 with the reason) and the
 * planner (which rejects the command with it): one that ended (completed, failed or cancelled)
 * after writing into an existing table or in place, not a dry run, and not rolled back already or
 * being rolled back.
 */
public final class RollbackPolicy {

    private RollbackPolicy() {}

    /** Why {@code view}'s restore cannot be rolled back now, or {@code null} when it can. */
    public static String refusal(RestoreView view) {
        if (view.state() == null || view.request() == null) {
            return "the restore is unknown";
        }
        String restore = "restore " + view.restoreId();
        if (!view.state().terminal()) {
            return restore + " is " + view.state() + "; cancel it first, then roll it back";
        }
        if (view.state() == RestoreState.REJECTED) {
            return restore + " was rejected and wrote nothing";
        }
        var destination = view.request().destination();
        if (destination instanceof Destination.File) {
            return restore + " wrote a file and changed no table";
        }
        if (destination instanceof Destination.NewTable) {
            return restore + " created its table, which has no undo journal; delete the table instead";
        }
        if (view.dryRun()) {
            return restore + " was a dry run and wrote nothing";
        }
        if (view.rollingBack()) {
            return restore + " is being rolled back already";
        }
        if (view.rollbackEnd() instanceof RollbackCompleted) {
            return restore + " was rolled back already";
        }
        return null;
    }
}
