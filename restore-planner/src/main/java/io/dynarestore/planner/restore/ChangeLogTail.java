package io.dynarestore.planner.restore;

import io.dynarestore.core.pitr.NativeChainTail;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.ExportMetadata;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryDescription;

/**
 * Waits for the change log's tail before a backtrack or an undo is staged (ADR 0033). The capture
 * of the source table flushes at once when it sees the restore accepted; until its flush is listed
 * the log ends a little before the request, and the writes made in that moment would be left as
 * they are. Rule: wait, at most {@code wait}, until the log reaches the moment the restore was
 * accepted, re-listing the vault every {@code poll}; a log that ends long ago (no capture runs, or
 * it is behind) is not waited for, and what the log then holds is what is staged, its end said in
 * the plan. A native incremental chain's tail comes as an export the protector starts for the restore,
 * when DynamoDB takes a window that long ({@link NativeChainTail}): then the wait is
 * {@code nativeWait}, until the chain's end moves.
 */
final class ChangeLogTail {

    private static final Logger log = LoggerFactory.getLogger(ChangeLogTail.class);

    private final Duration wait;
    private final Duration recent;
    private final Duration poll;
    private final Clock clock;
    private final Duration nativeWait;
    private final Duration nativeShortest;

    /**
     * @param wait   the longest wait; zero never waits
     * @param recent how close to the acceptance the log must end to be waited for (a capture is running)
     * @param nativeWait the longest wait for a native chain's tail export
     * @param nativeShortest DynamoDB's shortest incremental export
     */
    ChangeLogTail(
            Duration wait, Duration recent, Duration poll, Clock clock, Duration nativeWait, Duration nativeShortest) {
        this.wait = wait;
        this.recent = recent;
        this.poll = poll;
        this.clock = clock;
        this.nativeWait = nativeWait;
        this.nativeShortest = nativeShortest;
    }

    /**
     * The coverage to stage from: {@code coverage} when its log reaches {@code acceptedAt} already
     * or is not worth waiting for, else the first listing that does, or the last one once
     * {@code wait} is over.
     */
    PitrCoverage await(
            String restoreId,
            Instant acceptedAt,
            PitrCoverage coverage,
            Supplier<PitrCoverage> listing,
            Supplier<PointInTimeRecoveryDescription> recovery) {
        if (wait.isZero() || acceptedAt == null) {
            return coverage;
        }
        ExportMetadata last = coverage.lastExport().orElse(null);
        if (last != null && last.exportId().startsWith(NativeChainTail.EXPORT_ID_PREFIX)) {
            return awaitNativeTail(restoreId, acceptedAt, coverage, last.to(), listing, recovery);
        }
        Instant end = end(coverage);
        if (end == null || !end.isBefore(acceptedAt) || end.isBefore(acceptedAt.minus(recent))) {
            return coverage;
        }
        PitrCoverage latest = relist(coverage, listing, wait, c -> {
            Instant e = end(c);
            return e != null && !e.isBefore(acceptedAt);
        });
        log.info("restore {}: the change log ends at {} (accepted at {})", restoreId, end(latest), acceptedAt);
        return latest;
    }

    /** Lists the vault every {@code poll} until {@code reached} or {@code limit}: the last listing. */
    private PitrCoverage relist(
            PitrCoverage coverage, Supplier<PitrCoverage> listing, Duration limit, Predicate<PitrCoverage> reached) {
        Instant deadline = clock.instant().plus(limit);
        PitrCoverage latest = coverage;
        while (clock.instant().isBefore(deadline)) {
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return latest;
            }
            latest = listing.get();
            if (reached.test(latest)) {
                return latest;
            }
        }
        return latest;
    }

    /**
     * A native chain ending at {@code chainEnd}: waits, at most {@code nativeWait}, for the export of
     * its tail to be listed, if DynamoDB takes one (the protector applies the same rule).
     */
    private PitrCoverage awaitNativeTail(
            String restoreId,
            Instant acceptedAt,
            PitrCoverage coverage,
            Instant chainEnd,
            Supplier<PitrCoverage> listing,
            Supplier<PointInTimeRecoveryDescription> recovery) {
        PointInTimeRecoveryDescription pitr;
        try {
            pitr = recovery.get();
        } catch (RuntimeException e) {
            log.info("restore {}: recovery of the source unknown ({}); not waiting for a tail export", restoreId, e);
            return coverage;
        }
        if (pitr == null
                || NativeChainTail.end(
                                chainEnd,
                                acceptedAt,
                                pitr.earliestRestorableDateTime(),
                                pitr.latestRestorableDateTime(),
                                nativeShortest)
                        .isEmpty()) {
            return coverage;
        }
        log.info(
                "restore {}: waiting up to {} for the export of the change log's tail after {}",
                restoreId,
                nativeWait,
                chainEnd);
        PitrCoverage latest = relist(
                coverage,
                listing,
                nativeWait,
                c -> c.lastExport().map(e -> e.to().isAfter(chainEnd)).orElse(false));
        // the wait may have ended without the tail (nativeWait passed): say where the log ends either way
        log.info(
                "restore {}: the change log's last export ends at {} (the chain ended at {} before the wait)",
                restoreId,
                latest.lastExport().map(ExportMetadata::to).orElse(null),
                chainEnd);
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
