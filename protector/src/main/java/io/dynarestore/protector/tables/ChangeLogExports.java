package io.dynarestore.protector.tables;

import io.dynarestore.contracts.protection.ChangeLogFailed;
import io.dynarestore.contracts.protection.ChangeLogFlushed;
import io.dynarestore.contracts.protection.ChangeLogGapped;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.protector.changelog.NativeIncrementalExports;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table's NATIVE_INCREMENTAL change log while its {@link TableGuard} owns it: one run at a time
 * on the export pool, each recording the chain's exports that are due, one after another, and telling
 * each as an event; a failed run is told and tried again after {@link #RETRY}. A restore of the
 * table asks for the chain's tail ({@link #flushThrough}): the next run exports it too.
 */
final class ChangeLogExports {

    private static final Logger log = LoggerFactory.getLogger(ChangeLogExports.class);
    private static final Duration RETRY = Duration.ofSeconds(30);

    private final TableServices services;
    private final Runnable backupNow;
    private final Clock clock;
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile Instant nextExportCheck = Instant.MIN;
    private volatile Future<?> running;
    /** Where a restore wants the chain to reach (ADR 0033), until a run has tried to export it. */
    private final AtomicReference<Instant> tailTarget = new AtomicReference<>();

    ChangeLogExports(TableServices services, Runnable backupNow, Clock clock) {
        this.services = services;
        this.backupNow = backupNow;
        this.clock = clock;
    }

    void cancel() {
        Future<?> f = running;
        if (f != null) {
            f.cancel(true);
        }
    }

    /**
     * A restore of the table was accepted at {@code target}: the next run, at the next step, also
     * exports the chain's tail towards it, if DynamoDB takes a window that long (ADR 0033).
     */
    void flushThrough(Instant target) {
        tailTarget.accumulateAndGet(target, (a, b) -> a == null || b.isAfter(a) ? b : a);
        nextExportCheck = Instant.MIN;
    }

    /**
     * A NATIVE_INCREMENTAL change log: every {@code exports.checkEvery}, the next exports of the chain
     * that are due, one after another, on the export pool (an export runs for minutes on AWS).
     */
    void maybeRun(ProtectionSet p, Instant now) {
        if (p.changeLogMethod() != ChangeLogMethod.NATIVE_INCREMENTAL
                || now.isBefore(nextExportCheck)
                || !busy.compareAndSet(false, true)) {
            return;
        }
        nextExportCheck = now.plus(services.exports().checkEvery());
        running = services.exportPool().submit(() -> runExports(p));
    }

    private void runExports(ProtectionSet p) {
        Instant tail = tailTarget.get();
        try {
            NativeIncrementalExports.Outcome outcome;
            do {
                outcome = services.incrementals()
                        .step(services.dynamo(p), p, tail, services.exports().shortestWindow());
                if (outcome.gap() != null) {
                    services.events()
                            .publish(ChangeLogGapped.of(
                                    p.account(),
                                    p.region(),
                                    p.table(),
                                    outcome.gap().from(),
                                    outcome.gap().to(),
                                    "point-in-time recovery no longer reached the change log's end; it "
                                            + "restarted at the first backup since"));
                }
                ExportMetadata e = outcome.exported();
                if (e != null) {
                    Duration lag = Duration.between(e.to(), clock.instant());
                    services.metrics().flushed(e.itemCount(), lag);
                    services.events()
                            .publish(ChangeLogFlushed.of(
                                    p.account(),
                                    p.region(),
                                    p.table(),
                                    e.exportId(),
                                    e.from(),
                                    e.to(),
                                    e.itemCount(),
                                    Math.max(0, lag.toMillis())));
                }
                if (outcome.needsBase()) {
                    backupNow.run(); // the chain starts at a backup inside the recovery window
                }
            } while (outcome.exported() != null && !Thread.currentThread().isInterrupted());
            // tried: the chain reaches the tail, or DynamoDB takes no window that short yet
            tailTarget.compareAndSet(tail, null);
        } catch (RuntimeException e) {
            log.warn("change-log export of {} failed: {}", p.subject(), e.toString());
            services.events()
                    .publish(ChangeLogFailed.of(
                            p.account(),
                            p.region(),
                            p.table(),
                            ChangeLogMethod.NATIVE_INCREMENTAL,
                            String.valueOf(e.getMessage())));
            nextExportCheck = clock.instant().plus(RETRY);
        } finally {
            busy.set(false);
        }
    }
}
