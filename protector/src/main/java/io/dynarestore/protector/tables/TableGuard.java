package io.dynarestore.protector.tables;

import io.dynarestore.contracts.protection.BackupCompleted;
import io.dynarestore.contracts.protection.BackupExpired;
import io.dynarestore.contracts.protection.BackupFailed;
import io.dynarestore.contracts.protection.BackupMethod;
import io.dynarestore.contracts.protection.BackupStarted;
import io.dynarestore.contracts.protection.ChangeLogExpired;
import io.dynarestore.contracts.protection.ChangeLogFailed;
import io.dynarestore.contracts.protection.ChangeLogFlushed;
import io.dynarestore.contracts.protection.ChangeLogGapped;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ExpiryFailed;
import io.dynarestore.contracts.protection.ProtectionEvent;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupMetadata;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.protector.backups.BackupSchedule;
import io.dynarestore.protector.backups.BackupTaker;
import io.dynarestore.protector.changelog.StreamCapture;
import io.dynarestore.protector.retention.Expiry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Protects one table while this replica owns it: the change-log capture on its own fixed-delay
 * task (one step at a time), the scheduled backups on the shared backup pool (one at a time per
 * table), and retention once a minute. With a Streams change log, backups wait for the capture to
 * have started, so that every backup is followed by the change log that makes its later seconds
 * restorable. {@link #stop()} drops what the capture holds unflushed, as a crash would: the next
 * owner resumes from the vault's checkpoint.
 */
final class TableGuard {

    private static final Logger log = LoggerFactory.getLogger(TableGuard.class);
    private static final Duration BACKUP_RETRY = Duration.ofSeconds(30);

    private final TableServices services;
    private final int partition;
    private final Clock clock;
    private volatile ProtectionSet policy;
    /** The capture of group 0 (of every shard, when the table is not split): a tick's slice, then backups and expiry. */
    private final CaptureStepper captures;

    private volatile boolean captureStarted;
    private final AtomicBoolean backupRunning = new AtomicBoolean();
    private volatile boolean backupNow;
    private volatile Instant nextExpiry = Instant.MIN;
    private final AtomicBoolean expiring = new AtomicBoolean();
    /** How long one expiry round waits for the fold of the restores in progress to catch up. */
    private static final Duration HOLDS_WAIT = Duration.ofSeconds(10);

    private volatile Instant nextBackupAttempt = Instant.MIN;
    private volatile Instant slotListed;
    private volatile String onDemandListed;
    /** The drill slot whose restore this guard asked for last. */
    private volatile Instant drillSlot;

    private final SerialTask ticks = new SerialTask(this::step);
    private volatile Future<?> backup;
    private final ChangeLogExports changeLogExports;
    private final GroupStarts groupStarts;

    TableGuard(TableServices services, ProtectionSet policy, int partition, Clock clock) {
        this.services = services;
        this.policy = policy;
        this.partition = partition;
        this.clock = clock;
        this.changeLogExports = new ChangeLogExports(services, this::backupNow, clock);
        this.groupStarts = new GroupStarts(services, this::backupNow);
        this.captures = new CaptureStepper(() -> services.newCapture(this.policy, 0, new CaptureEvents()));
    }

    int partition() {
        return partition;
    }

    StreamCapture capture() {
        return captures.capture();
    }

    void start(ScheduledExecutorService scheduler, Duration pollInterval) {
        ticks.start(scheduler, pollInterval);
    }

    /**
     * A new policy for the same table. A changed change-log method restarts the capture; a new
     * flush interval applies to the running one, which keeps what it holds (a restart would lose
     * its unflushed writes to a gap).
     */
    void update(ProtectionSet next) {
        if (next.changeLogMethod() != policy.changeLogMethod() || next.shardGroups() != policy.shardGroups()) {
            // other groups are other chains: the new ones start at the stream's head, and a backup follows
            ticks.exclusive(
                    () -> { // the capture is stepped by one thread at a time
                        captures.stop();
                        captureStarted = false;
                    });
        } else if (!next.flushInterval().equals(policy.flushInterval())) {
            captures.flushEvery(next.flushInterval());
        }
        policy = next;
    }

    /** Takes a backup at the next tick, whatever the schedule says. */
    void backupNow() {
        backupNow = true;
    }

    /**
     * A restore wants the change log's tail: the Streams capture flushes at once until its log
     * reaches {@code target}; a native incremental chain exports its tail at the next step.
     */
    void flushThrough(Instant target) {
        if (policy.changeLogMethod() == ChangeLogMethod.NATIVE_INCREMENTAL) {
            changeLogExports.flushThrough(target);
        } else {
            captures.flushThrough(target);
        }
    }

    /** Stops, and returns once no step of this table runs any more. */
    void stop() {
        ticks.cancel(); // first: no tick starts another backup once this one is cancelled
        Future<?> running = backup;
        if (running != null) {
            running.cancel(true);
        }
        changeLogExports.cancel();
        ticks.stop(captures::stop);
    }

    private void step() {
        try {
            Instant now = clock.instant();
            stepCapture(now);
            changeLogExports.maybeRun(policy, now);
            maybeBackup(now);
            maybeDrill(now);
            if (!now.isBefore(nextExpiry) && expiring.compareAndSet(false, true)) {
                nextExpiry = now.plus(services.retention().every());
                // on its own thread: it may wait for the fold of the restores in progress, and the capture must not
                try {
                    services.expiryPool().execute(() -> {
                        try {
                            expire(now);
                        } finally {
                            expiring.set(false);
                        }
                    });
                } catch (RejectedExecutionException e) {
                    expiring.set(false); // shutting down
                }
            }
        } catch (RuntimeException e) {
            // one table's trouble never stops the others; the next tick tries again
            log.warn("protecting {} failed: {}", key(), e.toString());
            ProtectionSet p = policy;
            if (captures.capture() != null) {
                // what it read since its last flush is read again from the checkpoint: nothing is lost
                publish(ChangeLogFailed.of(
                        p.account(), p.region(), p.table(), ChangeLogMethod.STREAMS, String.valueOf(e.getMessage())));
            }
            captures.failed(clock.instant().plusSeconds(5));
            captureStarted = false;
        }
    }

    private void stepCapture(Instant now) {
        if (policy.changeLogMethod() != ChangeLogMethod.STREAMS) {
            return;
        }
        StreamCapture started = captures.step(now);
        if (started != null) {
            captureStarted = true;
            if (!started.resumed()) {
                // a change log that starts afresh makes no earlier backup's later seconds restorable
                backupNow();
            }
        }
    }

    /** Asks for the restore drill of the slot that holds {@code now}, once a slot here (ADR 0044). */
    private void maybeDrill(Instant now) {
        ProtectionSet p = policy;
        Instant slot = p.drillSlotAt(now);
        if (slot == null || slot.equals(drillSlot)) {
            return;
        }
        drillSlot = slot;
        if (p.occurredAt() != null && slot.isBefore(p.occurredAt())) {
            return; // the first drill is at the first slot after the policy was set, when its backups may be
        }
        services.drills().start(p, slot, backupRunning.get());
    }

    private void maybeBackup(Instant now) {
        ProtectionSet p = policy;
        StreamCapture capture = captures.capture();
        if (backupRunning.get() || now.isBefore(nextBackupAttempt)) {
            return;
        }
        if (p.changeLogMethod() == ChangeLogMethod.STREAMS
                && (!captureStarted || capture == null || now.isBefore(capture.coveredUntil()))) {
            return; // a backup before the change log starts would have no restorable second after it
        }
        if (p.changeLogMethod() == ChangeLogMethod.STREAMS
                && p.shardGroups() > 1
                && !groupStarts.allStarted(p, capture.streamArn(), now)) {
            return; // and so would one before every shard group's chain starts
        }
        String id;
        Instant slot;
        Instant requested = p.backupRequestedAt();
        // the vault is asked about a slot (or an on-demand id) until it lists its backup, not at every tick
        Instant current = p.slotAt(now);
        var due = current.equals(slotListed)
                ? Optional.<Instant>empty()
                : services.schedule().due(p, now);
        if (due.isEmpty()) {
            slotListed = current;
        }
        if (backupNow) {
            // the slot's backup if it is due anyway, so that one backup serves both
            backupNow = false;
            slot = due.orElse(now);
            id = due.isPresent() ? BackupSchedule.backupIdOf(slot) : BackupTaker.newBackupId(now);
        } else if (requested != null
                && !requested.isAfter(now)
                && !p.onDemandBackupId().equals(onDemandListed)
                && onDemandDue(p)) {
            slot = requested;
            id = p.onDemandBackupId();
        } else if (due.isPresent()) {
            slot = due.get();
            id = BackupSchedule.backupIdOf(slot);
        } else {
            return;
        }
        if (backupRunning.compareAndSet(false, true)) {
            backup = services.backupPool().submit(() -> runBackup(p, id, slot));
        }
    }

    private boolean onDemandDue(ProtectionSet p) {
        boolean due = services.schedule().onDemandDue(p);
        if (!due) {
            onDemandListed = p.onDemandBackupId();
        }
        return due;
    }

    private void runBackup(ProtectionSet p, String id, Instant slot) {
        BackupMethod method = p.backups().method();
        try {
            Instant started = clock.instant();
            publish(BackupStarted.of(p.account(), p.region(), p.table(), id, method, slot));
            BackupMetadata metadata;
            long items;
            if (method == BackupMethod.NATIVE_EXPORT) {
                // a snapshot at the slot itself: DynamoDB exports the table as it was then
                var taken = services.nativeBackups().take(services.dynamo(p), p, id, slot);
                metadata = taken.metadata();
                items = taken.itemCount();
            } else {
                Backup b = services.scans()
                        .take(
                                services.dynamo(p),
                                services.capacityEnforced(p),
                                p,
                                id,
                                started,
                                new BackupProgress(services, p, id));
                metadata = b.metadata();
                items = b.itemCount();
            }
            Duration took = Duration.between(started, clock.instant());
            services.metrics().backupTook(took);
            publish(BackupCompleted.of(
                    p.account(),
                    p.region(),
                    p.table(),
                    id,
                    method,
                    metadata.takenAt(),
                    metadata.expiresAt(),
                    items,
                    took.toMillis()));
        } catch (RuntimeException e) {
            log.warn("backup {} of {} failed: {}", id, key(), e.toString());
            publish(BackupFailed.of(p.account(), p.region(), p.table(), id, method, String.valueOf(e.getMessage())));
            nextBackupAttempt = clock.instant().plus(BACKUP_RETRY); // not a failed backup per tick
        } finally {
            backupRunning.set(false);
        }
    }

    private void expire(Instant now) {
        ProtectionSet p = policy;
        Expiry.Expired gone;
        try {
            if (ticks.stopped()) {
                return;
            }
            var held = services.restores().held(p.account(), p.region(), p.table(), now, HOLDS_WAIT);
            if (held.isEmpty()) {
                // what restores in progress read is not known yet: nothing is deleted until it is
                log.info("expiry of {} waits for the restores in progress to be read", key());
                return;
            }
            gone = services.expiry()
                    .run(p.account(), p.region(), p.table(), services.ownExportPrefixes(), held.get(), now);
        } catch (RuntimeException e) {
            // what could not be deleted stays listed; the next round tries again, and the capture goes on
            log.warn("expiry of {} failed: {}", key(), e.toString());
            publish(ExpiryFailed.of(p.account(), p.region(), p.table(), String.valueOf(e.getMessage())));
            return;
        }
        gone.backups()
                .forEach(b ->
                        publish(BackupExpired.of(p.account(), p.region(), p.table(), b.backupId(), b.expiresAt())));
        gone.exports()
                .forEach(e -> publish(ChangeLogExpired.of(p.account(), p.region(), p.table(), e.exportId(), e.to())));
    }

    private void publish(ProtectionEvent event) {
        services.events().publish(event);
    }

    private String key() {
        ProtectionSet p = policy;
        return p.account() + "/" + p.region() + "/" + p.table();
    }

    private final class CaptureEvents implements StreamCapture.Listener {
        @Override
        public void flushed(ExportMetadata export, long records, Duration lag) {
            ProtectionSet p = policy;
            services.metrics().flushed(records, lag);
            publish(ChangeLogFlushed.of(
                    p.account(),
                    p.region(),
                    p.table(),
                    export.exportId(),
                    export.from(),
                    export.to(),
                    records,
                    Math.max(0, lag.toMillis())));
        }

        @Override
        public void gapped(Instant from, Instant to, String reason) {
            ProtectionSet p = policy;
            log.warn("change log of {} has a gap from {} to {}: {}", key(), from, to, reason);
            publish(ChangeLogGapped.of(p.account(), p.region(), p.table(), from, to, reason));
            backupNow(); // the seconds after a gap are restorable only from a backup taken after it
        }
    }
}
