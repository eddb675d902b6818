package io.dynarestore.planner.restore;

import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.planner.staging.BacktrackStager;
import java.time.Duration;
import java.time.Instant;

/**
 * When an in-place restore to a second is a backtrack, and the words the plan uses for it (ADR 0031).
 * A backtrack reverts only the keys written after T, from the change log; it is chosen when the log
 * holds every write after T up to a recent end E and holds fewer changes than {@value #FULL_PASSES}
 * times the backup's items: the full path goes over the image about that many times (the base, the
 * delta, each key read back before it is written, the sweep's Scan), a backtrack over the log once.
 */
final class BacktrackChoice {

    static final int FULL_PASSES = 4;

    private BacktrackChoice() {}

    /** Why this restore takes the full path instead, or {@code null} when it is a backtrack. */
    static String refusal(PitrCoverage.ChangeLog log, long baseItems, Instant now, Duration maxLag) {
        if (log == null) {
            return "the change log does not hold every write after the point in time with its old image (a gap "
                    + "follows it, or a compacted native export covers it)";
        }
        if (log.end().isBefore(now.minus(maxLag))) {
            return "the change log ends at " + log.end() + ", more than planner.pitr.backtrack-max-lag (" + maxLag
                    + ") ago, so later writes could not be reverted";
        }
        if (log.lines() >= FULL_PASSES * baseItems) {
            return "the change log after the point in time holds " + log.lines() + " changes, no fewer than "
                    + FULL_PASSES + " times the " + baseItems + " items of the backup, which the full path reads";
        }
        return null;
    }

    /** The plan's strategy reason for a backtrack, or for the undo of a window. */
    static String reason(BacktrackStager.StagedBacktrack staged, long tableItems) {
        String read = "read from the change log up to " + staged.logEnd() + " (" + staged.changesRead()
                + " changes). No backup is read and the table is not scanned: the cost follows what changed, not "
                + "the table's " + tableItems + " items.";
        if (staged.until() != null) {
            return "Undo of (" + staged.pointInTime() + ", " + staged.until() + "]: the " + staged.reverts()
                    + " keys written in it go back to their image at " + staged.pointInTime() + " ("
                    + staged.deletes() + " did not exist then and are deleted); " + staged.conflicts()
                    + " were written again after it (conflicts, listed in the plan), " + read;
        }
        return "Backtrack: only the " + staged.reverts() + " keys written after " + staged.pointInTime()
                + " are reverted, each to its image then (the old image of its first write after it; "
                + staged.deletes() + " did not exist and are deleted), " + read;
    }

    /** The warning every backtrack carries: writes after the log's end are not reverted. */
    static String tailWarning(Instant logEnd) {
        return "The change log holds the table's writes up to " + logEnd + ": writes made after that are not in it "
                + "yet and are left as they are. Restore again later to revert them too.";
    }
}
