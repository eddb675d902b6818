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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table's NATIVE_INCREMENTAL change log while its {@link TableGuard} owns it: one run at a time
 * on the export pool, each recording the chain's exports that are due, one after another, and telling
 * each as an event; a failed run is told and tried again after {@link #RETRY}.
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
        try {
            NativeIncrementalExports.Outcome outcome;
            do {
                outcome = services.incrementals().step(services.dynamo(p), p);
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
