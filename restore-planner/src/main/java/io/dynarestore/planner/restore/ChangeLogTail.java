package io.dynarestore.planner.restore;

import io.dynarestore.core.pitr.PitrCoverage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for the change log's tail before a backtrack or an undo is staged (ADR 0033). The capture
 * of the source table flushes at once when it sees the restore accepted; until its flush is listed
 * the log ends a little before the request, and the writes made in that moment would be left as
 * they are. Rule: wait, at most {@code wait}, until the log reaches the moment the restore was
 * accepted, re-listing the vault every {@code poll}; a log that ends long ago (no capture runs, or
 * it is behind) is not waited for, and what the log then holds is what is staged, its end said in
 * the plan.
 */
final class ChangeLogTail {

    private static final Logger log = LoggerFactory.getLogger(ChangeLogTail.class);

    private final Duration wait;
    private final Duration recent;
    private final Duration poll;
    private final Clock clock;

    /**
     * @param wait   the longest wait; zero never waits
     * @param recent how close to the acceptance the log must end to be waited for (a capture is running)
     */
    ChangeLogTail(Duration wait, Duration recent, Duration poll, Clock clock) {
        this.wait = wait;
        this.recent = recent;
        this.poll = poll;
        this.clock = clock;
    }

    /**
     * The coverage to stage from: {@code coverage} when its log reaches {@code acceptedAt} already
     * or is not worth waiting for, else the first listing that does, or the last one once
     * {@code wait} is over.
     */
    PitrCoverage await(String restoreId, Instant acceptedAt, PitrCoverage coverage, Supplier<PitrCoverage> listing) {
        if (wait.isZero() || acceptedAt == null) {
            return coverage;
        }
        Instant end = end(coverage);
        if (end == null || !end.isBefore(acceptedAt) || end.isBefore(acceptedAt.minus(recent))) {
            return coverage;
        }
        Instant deadline = clock.instant().plus(wait);
        PitrCoverage latest = coverage;
        while (clock.instant().isBefore(deadline)) {
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return latest;
            }
            latest = listing.get();
            end = end(latest);
            if (end != null && !end.isBefore(acceptedAt)) {
                log.info("restore {}: the change log reaches {}, past its acceptance", restoreId, end);
                return latest;
            }
        }
        log.info("restore {}: the change log still ends at {} after {}; staging what it holds", restoreId, end, wait);
        return latest;
    }

    /**
     * Where the log ends: every write before it is in the vault (the second after the latest
     * restorable one, whether or not it reaches past T yet).
     */
    private static Instant end(PitrCoverage coverage) {
        Instant latest = coverage.availability().latestRestorable();
        return latest == null ? null : latest.plusSeconds(1);
    }
}
