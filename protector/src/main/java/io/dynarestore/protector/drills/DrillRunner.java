package io.dynarestore.protector.drills;

import io.dynarestore.contracts.BackupIds;
import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.DrillFailed;
import io.dynarestore.contracts.protection.DrillPassed;
import io.dynarestore.contracts.protection.DrillSkipped;
import io.dynarestore.contracts.protection.ProtectionEvent;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestoreRejected;
import io.dynarestore.contracts.status.Verification;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * Restore drills (ADR 0044). {@link #start} asks for the restore of a drill slot: the latest backup (or
 * a random restorable second) into a scratch table of the drill's provisioned WCU, under an id made from
 * the slot and the table, so that starting it again after a takeover starts one restore. {@link #onStatus}
 * reads every restore event, keeps what each drill's {@code RestoreAccepted} says, and on its end, when
 * {@code owns} says this replica guards the table, reports {@code DrillPassed} or {@code DrillFailed} and
 * deletes the scratch table: only a table named as a drill's own, never another.
 */
public final class DrillRunner {

    static final String PREFIX = "drill-";
    static final String SCRATCH = "-drill-";
    /** Drills remembered between their acceptance and their end, at most (oldest dropped first). */
    static final int MAX_PENDING = 1_000;
    /**
     * How long after its policy was set a table that never had a backup skips its drills even when no backup
     * is being taken (ADR 0047): the first backup begins at once, and a failed one is tried again within
     * minutes. After it, a table with no backup at all is a failed drill, an alert.
     */
    static final Duration FIRST_BACKUP_GRACE = Duration.ofHours(1);

    private static final Logger log = LoggerFactory.getLogger(DrillRunner.class);

    private final VaultCatalog catalog;
    private final AwsClients aws;
    private final EventPublisher publisher;
    private final Consumer<ProtectionEvent> events;
    private final Predicate<String> owns;
    private final Executor pool;
    private final Clock clock;
    private final Counter passed;
    private final Counter failed;
    private final Counter skipped;
    private final Timer took;
    private final Map<String, Pending> pending = new LinkedHashMap<>();

    /** A drill between its acceptance and its end: where it restored to, from what, since when. */
    record Pending(String account, String region, String table, String scratch, String source, Instant since) {}

    public DrillRunner(
            VaultCatalog catalog,
            AwsClients aws,
            EventPublisher publisher,
            Consumer<ProtectionEvent> events,
            Predicate<String> owns,
            Executor pool,
            MeterRegistry registry,
            Clock clock) {
        this.catalog = catalog;
        this.aws = aws;
        this.publisher = publisher;
        this.events = events;
        this.owns = owns;
        this.pool = pool;
        this.clock = clock;
        this.passed = Counter.builder("dynarestore.protector.drills")
                .tag("outcome", "passed")
                .description("restore drills that passed")
                .register(registry);
        this.failed = Counter.builder("dynarestore.protector.drills")
                .tag("outcome", "failed")
                .description("restore drills that failed, or could not run")
                .register(registry);
        this.skipped = Counter.builder("dynarestore.protector.drills")
                .tag("outcome", "skipped")
                .description("restore drills not run: the table's first backup was still being taken")
                .register(registry);
        this.took = Timer.builder("dynarestore.protector.drill.duration")
                .description("from a drill's request to its restore's end")
                .register(registry);
    }

    /** The id of the restore of the drill of {@code slot}: the same on every replica. */
    static String restoreId(ProtectionSet p, Instant slot) {
        String hash = Integer.toHexString(
                Topic.tableKey(p.account(), p.region(), p.table()).hashCode());
        return PREFIX + BackupIds.stamp(slot) + "-" + hash;
    }

    /** The scratch table of the drill of {@code slot}: the table's name (cut to fit) and the slot. */
    static String scratchTable(String table, Instant slot) {
        String suffix = SCRATCH + BackupIds.stamp(slot).toLowerCase();
        return table.substring(0, Math.min(table.length(), 255 - suffix.length())) + suffix;
    }

    /**
     * The second a {@code RANDOM_SECOND} drill of {@code slot} restores: a window drawn evenly, then a
     * whole second of it drawn evenly (both ends included), seeded by the slot so that every replica draws the
     * same; every window has its turn however short it is.
     */
    static Instant randomSecond(List<PitrCoverage.Window> windows, Instant slot) {
        var random = new Random(slot.toEpochMilli());
        var w = windows.get(random.nextInt(windows.size()));
        // whole seconds inside the window: a start within a second begins at the next one
        long first = w.start().getEpochSecond() + (w.start().getNano() > 0 ? 1 : 0);
        long last = w.end().getEpochSecond();
        if (last < first) {
            return w.start(); // a window within one second: its start is the one instant it has
        }
        return Instant.ofEpochSecond(first + random.nextLong(last - first + 1));
    }

    /**
     * Whether a drill that found nothing to restore waits for the table's first backup rather than fails
     * (ADR 0047): the vault holds no backup of the table, expired or not, and one is being taken now
     * ({@code backupRunning}) or the policy was set less than {@link #FIRST_BACKUP_GRACE} before the slot.
     */
    static boolean firstBackupStillDue(ProtectionSet p, Instant slot, boolean anyBackup, boolean backupRunning) {
        if (anyBackup) {
            return false; // backups were taken: none to drill now means they stopped or expired
        }
        return backupRunning
                || (p.occurredAt() != null && slot.isBefore(p.occurredAt().plus(FIRST_BACKUP_GRACE)));
    }

    /**
     * Asks for the restore of the drill of {@code slot}, or reports why there is none to run: skipped while
     * the table's first backup is still due ({@code backupRunning}: the table's guard is taking a backup
     * now), failed otherwise. A drill that cannot be started (the vault unreadable, the request not
     * published) is a failed drill, never the table guard's trouble: its backups and change log go on.
     */
    public void start(ProtectionSet p, Instant slot, boolean backupRunning) {
        try {
            request(p, slot, backupRunning);
        } catch (RuntimeException e) {
            log.warn("drill of {} at {} could not start: {}", p.table(), slot, e.toString());
            fail(p, slot, restoreId(p, slot), "none", scratchTable(p.table(), slot), "the drill could not start: " + e);
        }
    }

    private void request(ProtectionSet p, Instant slot, boolean backupRunning) {
        var drills = p.drills();
        String restoreId = restoreId(p, slot);
        String scratch = scratchTable(p.table(), slot);
        Instant now = clock.instant();
        var all = catalog.listBackups(p.account(), p.region(), p.table());
        var backups = all.stream().filter(b -> !b.expiredAt(now)).toList();
        boolean waitForFirst = firstBackupStillDue(p, slot, !all.isEmpty(), backupRunning);
        Source source;
        BackupSummary base;
        if (drills.sourceOrDefault() == ProtectionSet.DrillSource.RANDOM_SECOND) {
            var coverage = PitrCoverage.of(backups, catalog.listExports(p.account(), p.region(), p.table()), now);
            var windows = coverage.availability().windows();
            if (windows.isEmpty() && waitForFirst) {
                skip(p, restoreId);
                return;
            }
            if (windows.isEmpty()) {
                fail(p, slot, restoreId, "no second", scratch, "no second of the table is restorable to drill");
                return;
            }
            Instant t = randomSecond(windows, slot);
            base = coverage.resolve(t).map(PitrCoverage.Resolution::base).orElse(null);
            source = new Source(p.account(), p.region(), p.table(), null, t.toString(), null);
        } else {
            base = backups.isEmpty() ? null : backups.get(backups.size() - 1);
            if (base == null && waitForFirst) {
                skip(p, restoreId);
                return;
            }
            if (base == null) {
                fail(p, slot, restoreId, "no backup", scratch, "the table has no unexpired backup to drill");
                return;
            }
            source = new Source(p.account(), p.region(), p.table(), base.backupId(), null, null);
        }
        if (base != null && base.itemCount() > drills.maxItemsOrDefault()) {
            fail(
                    p,
                    slot,
                    restoreId,
                    describe(source),
                    scratch,
                    "backup " + base.backupId() + " holds "
                            + base.itemCount() + " items, more than the drill's budget of " + drills.maxItemsOrDefault()
                            + " (drills.maxItems)");
            return;
        }
        long wcu = drills.writeUnitsOrDefault();
        var options = new Destination.TableOptions(
                false,
                false,
                null,
                null,
                null,
                false,
                new Destination.Billing(Destination.Billing.Mode.PROVISIONED, 5L, wcu),
                false,
                null,
                null);
        var request = new RestoreRequested(
                restoreId,
                RestoreRequested.TYPE,
                RestoreRequested.SCHEMA_VERSION,
                Envelope.newEventId(),
                now,
                "protector (restore drill)",
                source,
                new Scope.Full(),
                new Destination.NewTable(p.account(), p.region(), scratch, options),
                null,
                null);
        publisher.send(Topic.REQUESTS, restoreId, request).whenComplete((sent, e) -> {
            if (e != null) {
                fail(p, slot, restoreId, describe(source), scratch, "the drill's request was not published: " + e);
            }
        });
        log.info("drill {} of {}: restoring {} into {}", restoreId, p.table(), describe(source), scratch);
    }

    /** Every restore event, on the fold's thread: a drill's acceptance is kept, its end reported. */
    public void onStatus(RestoreEvent event) {
        if (event.restoreId() == null || !event.restoreId().startsWith(PREFIX)) {
            return;
        }
        if (event instanceof RestoreAccepted a
                && a.request() != null
                && a.request().destination() instanceof Destination.NewTable t) {
            var s = a.request().source();
            synchronized (pending) {
                pending.put(
                        a.restoreId(),
                        new Pending(s.account(), s.region(), s.table(), t.tableName(), describe(s), a.occurredAt()));
                while (pending.size() > MAX_PENDING) {
                    pending.remove(pending.keySet().iterator().next());
                }
            }
            return;
        }
        String failure;
        long items = 0;
        if (event instanceof RestoreCompleted c) {
            Verification v = c.verification();
            failure = v != null && v.failed() ? "verification failed: " + String.join("; ", v.mismatches()) : null;
            items = c.itemsWritten() + c.itemsUnchanged();
        } else if (event instanceof RestoreFailed f) {
            failure = "the restore failed: " + f.reason();
        } else if (event instanceof RestoreRejected r) {
            failure = "the restore was refused: " + r.reason();
        } else {
            return;
        }
        Pending d;
        synchronized (pending) {
            d = pending.remove(event.restoreId());
        }
        if (d == null || !owns.test(Topic.tableKey(d.account(), d.region(), d.table()))) {
            return; // another replica guards the table, or this drill's start was never seen
        }
        String why = failure;
        long written = items;
        pool.execute(() -> end(event.restoreId(), d, why, written, event.occurredAt()));
    }

    private void end(String restoreId, Pending d, String failure, long items, Instant at) {
        String drillId = drillId(restoreId);
        long tookMs =
                Duration.between(d.since(), at == null ? clock.instant() : at).toMillis();
        String cleanup = deleteScratch(d);
        took.record(Duration.ofMillis(tookMs));
        if (failure == null && cleanup == null) {
            passed.increment();
            events.accept(DrillPassed.of(
                    d.account(), d.region(), d.table(), drillId, restoreId, d.source(), d.scratch(), tookMs, items));
        } else {
            failed.increment();
            String reason = failure == null ? cleanup : cleanup == null ? failure : failure + "; " + cleanup;
            events.accept(DrillFailed.of(
                    d.account(),
                    d.region(),
                    d.table(),
                    drillId,
                    restoreId,
                    d.source(),
                    d.scratch(),
                    tookMs,
                    items,
                    reason));
        }
    }

    /** Deletes the drill's own scratch table; returns why it could not, or null. */
    private String deleteScratch(Pending d) {
        if (!d.scratch().contains(SCRATCH)) {
            return "the scratch table " + d.scratch() + " is not a drill's: left alone";
        }
        try {
            aws.dynamo(d.account(), d.region()).deleteTable(b -> b.tableName(d.scratch()));
            return null;
        } catch (ResourceNotFoundException e) {
            return null; // never made (the restore was refused or failed before it)
        } catch (RuntimeException e) {
            return "the scratch table " + d.scratch() + " could not be deleted: " + e.getMessage();
        }
    }

    private void skip(ProtectionSet p, String restoreId) {
        String why = "the table's first backup is still being taken; the drill runs at the next slot after it";
        log.info("drill {} of {} skipped: {}", restoreId, p.table(), why);
        skipped.increment();
        events.accept(DrillSkipped.of(p.account(), p.region(), p.table(), drillId(restoreId), why));
    }

    private void fail(ProtectionSet p, Instant slot, String restoreId, String source, String scratch, String why) {
        failed.increment();
        events.accept(DrillFailed.of(
                p.account(), p.region(), p.table(), drillId(restoreId), restoreId, source, scratch, 0L, 0L, why));
    }

    /** {@code <stamp>-drill}, from the restore id {@code drill-<stamp>-<hash>}. */
    static String drillId(String restoreId) {
        String rest = restoreId.substring(PREFIX.length());
        int dash = rest.indexOf('-');
        return (dash < 0 ? rest : rest.substring(0, dash)) + "-drill";
    }

    private static String describe(Source s) {
        return s.backupId() != null ? "backup " + s.backupId() : "second " + s.pointInTime();
    }
}
