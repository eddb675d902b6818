package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.restore.RestoreValidator.Verdict;
import java.time.Instant;

/**
 * The checks of an undo of a window (pointInTime, until] (ADR 0031): it reverts the source table
 * in place, its window ends after it starts and on a whole second, and the change log holds every
 * write of the window with its old image.
 */
final class UndoCheck {

    private UndoCheck() {}

    /** The problem with the request's undo, or {@code null} when it has none or it can be done. */
    static Verdict problem(RestoreRequested request, Instant pointInTime, PitrCoverage coverage) {
        Source.Undo undo = request.source().undo();
        if (undo == null) {
            return null;
        }
        if (request.source().kind() != Source.Kind.POINT_IN_TIME) {
            return Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/source/undo",
                    "An undo reverts the writes made after a second: give that second as source.pointInTime, "
                            + "not a backup or a Snap.");
        }
        if (!(request.destination() instanceof Destination.InPlace)) {
            return Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/destination/type",
                    "An undo reverts the source table itself: use {\"type\": \"IN_PLACE\"}.");
        }
        if (undo.onConflict() != null
                && !Source.Undo.LEAVE.equals(undo.onConflict())
                && !Source.Undo.OVERWRITE.equals(undo.onConflict())) {
            return Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/source/undo/onConflict",
                    "onConflict '" + undo.onConflict() + "' is neither LEAVE (keys written again after the "
                            + "window stay as they are, the default) nor OVERWRITE (they go back too).");
        }
        Instant until = undo.until() == null ? null : SourceCheck.parseInstant(undo.until());
        if (until == null || until.getNano() != 0 || !until.isAfter(pointInTime)) {
            return Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/source/undo/until",
                    "until '" + undo.until() + "' must be a whole second after pointInTime " + pointInTime
                            + ", such as " + pointInTime.plusSeconds(60) + ".");
        }
        var log = coverage.changeLogAfter(pointInTime).orElse(null);
        if (log == null || log.end().isBefore(until.plusSeconds(1))) {
            return Verdict.problem(
                    RejectionCode.POINT_NOT_RESTORABLE,
                    "/source/undo/until",
                    "The change log of table " + request.source().table() + " holds every write after "
                            + pointInTime + " with its old image "
                            + (log == null
                                    ? "not at all (a gap or a compacted export follows it)"
                                    : "up to " + log.end())
                            + ", so the window up to " + until + " cannot be undone. Undo a window that ends by then, "
                            + "or restore to pointInTime without undo.");
        }
        return null;
    }
}
