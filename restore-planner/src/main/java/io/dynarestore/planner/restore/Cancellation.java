package io.dynarestore.planner.restore;

import static io.dynarestore.planner.restore.RestoreSteps.publish;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.status.RestoreCancelled;
import io.dynarestore.contracts.status.RestorePlanned.Strategy;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.planner.restore.RestoreSteps.Cancel;
import io.dynarestore.planner.restore.RestoreSteps.Outcome;
import io.dynarestore.planner.restore.RestoreSteps.Snapshot;
import java.time.Clock;
import java.time.Duration;

/**
 * Ends a cancelled restore once every dispatched segment reported its end, or after the grace
 * time when some writer does not answer; what was written stays, and the note says where and
 * what to do about it.
 */
record Cancellation(Clock clock, EventPublisher publisher, Duration cancelGrace) {

    /**
     * Ends a cancelled restore once every dispatched segment reported its end (writers stop theirs
     * within seconds), or after the grace time when some writer does not answer. Items written stay.
     */
    Outcome cancel(Snapshot view) {
        Cancel cancel = view.cancel();
        Strategy strategy = view.plan() == null ? null : view.plan().strategy();
        boolean waitsForWriters = strategy == Strategy.ITEM_WRITES
                && cancel.ended() < cancel.dispatched()
                && clock.instant().isBefore(cancel.at().plus(cancelGrace));
        if (waitsForWriters) {
            return Outcome.later(Duration.ofMillis(500));
        }
        var note = new StringBuilder();
        String table =
                cancel.destination() == null ? null : cancel.destination().tableName();
        if (strategy == Strategy.IMPORT_FROM_S3 && view.importStarted() != null
                || strategy == Strategy.SNAP && view.snapStarted() != null) {
            note.append("DynamoDB goes on filling ")
                    .append(table)
                    .append(" (an import or a restore from a backup ")
                    .append("cannot be stopped); delete the table once it is ACTIVE if it is not wanted.");
        } else if (strategy == Strategy.FILE_EXPORT) {
            note.append("No file is offered for download; a file the exporter finishes stays in the vault until it ")
                    .append("expires.");
        } else {
            note.append(view.itemsWritten()).append(" items were written");
            if (table != null) {
                note.append(" to ").append(table);
            }
            note.append(" and stay there; nothing more is written.");
            if (cancel.ended() < cancel.dispatched()) {
                note.append(" ")
                        .append(cancel.dispatched() - cancel.ended())
                        .append(" of ")
                        .append(cancel.dispatched())
                        .append(" segments did not report within ")
                        .append(cancelGrace.toSeconds())
                        .append(" s; their writers stop them when they ")
                        .append("next look, and a few more items may land.");
            }
            if (cancel.tablePrepared() && view.request().destination() instanceof Destination.NewTable) {
                note.append(" The table was created by this restore; delete it if it is not wanted.");
            }
        }
        return Outcome.of(
                publish(publisher, RestoreCancelled.of(view.restoreId(), view.itemsWritten(), note.toString())));
    }
}
