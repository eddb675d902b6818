package io.dynarestore.planner.restore;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.CapacityPlan;
import io.dynarestore.contracts.status.CapacityRaiseStarted;
import io.dynarestore.contracts.status.CapacityRestored;
import io.dynarestore.contracts.status.DestinationReady;
import io.dynarestore.contracts.status.ImportCompleted;
import io.dynarestore.contracts.status.ImportStaged;
import io.dynarestore.contracts.status.ImportStarted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestorePlanned.Strategy;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentsDispatched;
import io.dynarestore.contracts.status.SnapRestoreStarted;
import io.dynarestore.contracts.status.SourceRef;
import io.dynarestore.contracts.status.SegmentCounts;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.contracts.status.Verification;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.contracts.work.SegmentDispatched.DataFile;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.imports.ImportStager;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.pitr.DeltaStager;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.pitr.SweepStager;
import io.dynarestore.core.restore.RestoreValidator;
import io.dynarestore.core.restore.RestoreValidator.Target;
import io.dynarestore.core.table.TableFinisher;
import io.dynarestore.core.table.TableSettings;
import io.dynarestore.core.table.TableSpecs;
import io.dynarestore.core.table.TableWaiter;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.SnapMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.planner.capacity.CapacityManager;
import io.dynarestore.planner.destination.NativeTables;
import io.dynarestore.planner.destination.TableCreator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The steps of a restore, each a function of its folded view that publishes the events that move
 * it on. Each step is safe to run again after a crash: planning is pure (staging a delta or an
 * import again overwrites it), table creation is idempotent by tag, an import by its client token,
 * a Snap restore by the backup the table was restored from, segments dispatched twice are written
 * twice (puts are idempotent) and counted once, a capacity raise is recorded before it is made and
 * raising again is a no-op. A step that waits on DynamoDB (an import, a Snap restore, a refused
 * put-back) returns {@link Outcome#later} and is taken again after a pause.
 */
final class RestoreSteps {

    private static final Logger log = LoggerFactory.getLogger(RestoreSteps.class);
    private static final double GIB = 1024.0 * 1024 * 1024;

    enum Step {
        PLAN, PREPARE_DESTINATION, DISPATCH, DISPATCH_DELTA, COMPLETE, FAIL,
        STAGE_IMPORT, START_IMPORT, AWAIT_IMPORT, START_SNAP, AWAIT_SNAP, PUT_BACK_CAPACITY, DISPATCH_EXPORT, CANCEL,
        ROLLBACK
    }

    /** What a step published, and whether to take the restore's next step again after a pause. */
    record Outcome(List<RestoreEvent> events, Duration again) {
        static Outcome of(RestoreEvent... events) {
            return new Outcome(List.of(events), null);
        }

        static Outcome later(Duration pause, RestoreEvent... events) {
            return new Outcome(List.of(events), pause);
        }
    }

    /**
     * Settings of the steps.
     *
     * @param skipKeysLimit        most changed keys writers hold as a skip set (beyond: phased, ADR 0006)
     * @param tableActive          how long a table may take to become ACTIVE
     * @param importFromS3         whether new tables without LSIs are restored by ImportTable
     * @param writeUnitsPerSecond  the writers' write budget, for the duration estimate of item writes
     * @param importBytesPerSecond the import rate assumed for the duration estimate of an import
     * @param importOverhead       the fixed time of an import, for its estimate
     * @param poll                 how often an import or a Snap restore is checked
     * @param putBackRetry         how long to wait before putting capacity back again when DynamoDB refused
     * @param exportCap            the most items a granular-recovery file holds
     * @param cancelGrace          how long a cancel waits for writers to report their segments stopped
     * @param rollbackUnitsPerSecond the write units per second a rollback may use at most
     */
    record Settings(long skipKeysLimit, Duration tableActive, boolean importFromS3, long writeUnitsPerSecond,
                    long importBytesPerSecond, Duration importOverhead, Duration poll, Duration putBackRetry,
                    long exportCap, Duration cancelGrace, long rollbackUnitsPerSecond) {
    }

    private final VaultCatalog catalog;
    private final TableCreator tables;
    private final DeltaStager stager;
    private final SweepStager sweeper;
    private final ImportStager importer;
    private final NativeTables nativeTables;
    private final CapacityManager capacity;
    private final AwsClients aws;
    private final EventPublisher publisher;
    private final Clock clock;
    private final Settings settings;

    RestoreSteps(VaultCatalog catalog, TableCreator tables, DeltaStager stager, SweepStager sweeper,
                 ImportStager importer, NativeTables nativeTables, CapacityManager capacity, AwsClients aws,
                 EventPublisher publisher, Clock clock, Settings settings) {
        this.catalog = catalog;
        this.tables = tables;
        this.stager = stager;
        this.sweeper = sweeper;
        this.importer = importer;
        this.nativeTables = nativeTables;
        this.capacity = capacity;
        this.aws = aws;
        this.publisher = publisher;
        this.clock = clock;
        this.settings = settings;
    }

    /** The step a restore in this state needs next, or {@code null} when it waits for others. */
    static Step next(RestoreView view) {
        if (view.state() == null || view.request() == null) {
            return null;
        }
        if (view.state().terminal()) {
            // capacity raised for a restore goes back whatever became of it
            return view.capacityToPutBack() ? Step.PUT_BACK_CAPACITY : view.rollingBack() ? Step.ROLLBACK : null;
        }
        if (view.cancellation() != null) {
            return Step.CANCEL; // before any other step: nothing more is dispatched
        }
        RestorePlanned plan = view.plan();
        switch (view.state()) {
            case ACCEPTED:
                return Step.PLAN;
            case PLANNED:
                if (plan.strategy() == Strategy.FILE_EXPORT) {
                    return view.dispatched() ? null : Step.DISPATCH_EXPORT;
                }
                if (plan.strategy() == Strategy.IMPORT_FROM_S3) {
                    return view.importStaged() == null ? Step.STAGE_IMPORT
                            : view.importStarted() == null ? Step.START_IMPORT : Step.AWAIT_IMPORT;
                }
                if (plan.strategy() == Strategy.SNAP) {
                    return view.snapStarted() == null ? Step.START_SNAP : Step.AWAIT_SNAP;
                }
                return Step.PREPARE_DESTINATION;
            case RUNNING:
                if (plan.strategy() == Strategy.FILE_EXPORT) {
                    return !view.failedSegments().isEmpty() ? Step.FAIL
                            : view.exportCompleted() != null ? Step.COMPLETE : null;
                }
                if (plan.strategy() != Strategy.ITEM_WRITES) {
                    return Step.COMPLETE; // DynamoDB filled the table
                }
                if (!view.dispatched()) {
                    return Step.DISPATCH;
                }
                if (!view.failedSegments().isEmpty()) {
                    return Step.FAIL;
                }
                if (!view.deltaDispatched()) {
                    long baseDone = view.completedSegments().keySet().stream()
                            .filter(s -> s < plan.baseSegments()).count();
                    return baseDone >= plan.baseSegments() ? Step.DISPATCH_DELTA : null;
                }
                return view.completedSegments().size() >= plan.segments() ? Step.COMPLETE : null;
            default:
                return null;
        }
    }

    /**
     * What a step may read of a restore: taken on the loop thread, so that steps on other threads
     * never see the view change under them.
     */
    record Snapshot(String restoreId, RestoreRequested request, Instant pointInTime, RestorePlanned plan,
                    SegmentCompleted.Counts counts, long bytesWritten, Instant createdAt,
                    Map<Integer, String> failedSegments, CapacityRaiseStarted capacityRaised,
                    ImportStaged importStaged, ImportStarted importStarted, ImportCompleted importCompleted,
                    SnapRestoreStarted snapStarted, Cancel cancel,
                    Map<Integer, SegmentCounts> completedSegments,
                    Map<Integer, SegmentCompleted.Check> checks, io.dynarestore.contracts.status.Diff diff,
                    io.dynarestore.contracts.status.ExportCompleted exportCompleted) {
        static Snapshot of(RestoreView view) {
            return new Snapshot(view.restoreId(), view.request(), view.pointInTime(), view.plan(),
                    new SegmentCompleted.Counts(view.itemsWritten(), view.itemsOverwritten(), view.itemsUnchanged(),
                            view.itemsDeleted(), 0), view.bytesWritten(), view.createdAt(),
                    new java.util.TreeMap<>(view.failedSegments()), view.capacityRaised(), view.importStaged(),
                    view.importStarted(), view.importCompleted(), view.snapStarted(), Cancel.of(view),
                    new java.util.TreeMap<>(view.completedSegments()), new java.util.TreeMap<>(view.segmentChecks()),
                    view.diff(), view.exportCompleted());
        }

        boolean dryRun() {
            return request != null && request.dry();
        }

        long itemsWritten() {
            return counts.written();
        }
    }

    /**
     * What a cancel needs to know: when it was taken, how many segments went out to writers, how
     * many of them reported an end (completed, failed or stopped), and where items went.
     */
    record Cancel(Instant at, int dispatched, int ended, boolean tablePrepared, TableRef destination) {
        static Cancel of(RestoreView view) {
            if (view.cancellation() == null) {
                return null;
            }
            RestorePlanned plan = view.plan();
            int dispatched = plan == null || !view.dispatched() ? 0
                    : view.deltaDispatched() ? plan.segments() : plan.baseSegments();
            var ended = new java.util.HashSet<Integer>(view.completedSegments().keySet());
            ended.addAll(view.failedSegments().keySet());
            ended.addAll(view.cancelledSegments().keySet());
            return new Cancel(view.cancellation().occurredAt(), dispatched, ended.size(),
                    view.state() == io.dynarestore.contracts.status.RestoreState.RUNNING, view.destination());
        }
    }

    /** Runs a step and returns what it published. */
    Outcome run(Step step, Snapshot view) {
        RestoreRequested request = view.request();
        return switch (step) {
            case PLAN -> Outcome.of(publish(plan(request, view.pointInTime())));
            case PREPARE_DESTINATION -> prepare(view);
            case DISPATCH -> Outcome.of(publish(dispatch(request, view.plan(), false)));
            case DISPATCH_DELTA -> Outcome.of(publish(dispatch(request, view.plan(), true)));
            case COMPLETE -> Outcome.of(publish(complete(view)));
            case FAIL -> {
                var failed = view.failedSegments().entrySet().iterator().next();
                yield Outcome.of(publish(RestoreFailed.of(view.restoreId(), "Segment " + failed.getKey() + " of "
                        + view.plan().segments() + " could not be written: " + failed.getValue()
                        + ". Items already written stay in " + view.plan().destination().tableName() + ".",
                        view.itemsWritten())));
            }
            case STAGE_IMPORT -> Outcome.of(publish(stageImport(view)));
            case START_IMPORT -> Outcome.of(publish(startImport(view)));
            case AWAIT_IMPORT -> awaitImport(view);
            case START_SNAP -> startSnap(view);
            case AWAIT_SNAP -> awaitSnap(view);
            case PUT_BACK_CAPACITY -> putBack(view);
            case DISPATCH_EXPORT -> Outcome.of(publish(dispatchExport(view)));
            case CANCEL -> cancel(view);
            case ROLLBACK -> rollback(view);
        };
    }

    /**
     * Ends a cancelled restore once every dispatched segment reported its end (writers stop theirs
     * within seconds), or after the grace time when some writer does not answer. Items written stay.
     */
    private Outcome cancel(Snapshot view) {
        Cancel cancel = view.cancel();
        Strategy strategy = view.plan() == null ? null : view.plan().strategy();
        boolean waitsForWriters = strategy == Strategy.ITEM_WRITES && cancel.ended() < cancel.dispatched()
                && clock.instant().isBefore(cancel.at().plus(settings.cancelGrace()));
        if (waitsForWriters) {
            return Outcome.later(Duration.ofMillis(500));
        }
        var note = new StringBuilder();
        String table = cancel.destination() == null ? null : cancel.destination().tableName();
        if (strategy == Strategy.IMPORT_FROM_S3 && view.importStarted() != null
                || strategy == Strategy.SNAP && view.snapStarted() != null) {
            note.append("DynamoDB goes on filling ").append(table).append(" (an import or a restore from a backup ")
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
                note.append(" ").append(cancel.dispatched() - cancel.ended()).append(" of ")
                        .append(cancel.dispatched()).append(" segments did not report within ")
                        .append(settings.cancelGrace().toSeconds()).append(" s; their writers stop them when they ")
                        .append("next look, and a few more items may land.");
            }
            if (cancel.tablePrepared() && view.request().destination() instanceof Destination.NewTable) {
                note.append(" The table was created by this restore; delete it if it is not wanted.");
            }
        }
        return Outcome.of(publish(io.dynarestore.contracts.status.RestoreCancelled.of(view.restoreId(),
                view.itemsWritten(), note.toString())));
    }

    private RestoreEvent publish(RestoreEvent event) {
        publisher.status(event);
        return event;
    }

    private Backup backup(RestoreRequested request, String backupId) {
        var s = request.source();
        return catalog.findBackup(s.account(), s.region(), s.table(), backupId).orElseThrow(() ->
                new StepException("Backup " + backupId + " of table " + s.table()
                        + " is no longer in the vault (deleted after the restore was accepted)."));
    }

    private SnapMetadata snap(RestoreRequested request) {
        var s = request.source();
        return catalog.findSnap(s.account(), s.region(), s.table(), s.snapId()).orElseThrow(() ->
                new StepException("Snap " + s.snapId() + " of table " + s.table()
                        + " is no longer in the vault (removed after the restore was accepted)."));
    }

    RestorePlanned plan(RestoreRequested request, Instant pointInTime) {
        if (request.source().snapId() != null) {
            return planSnap(request);
        }
        if (request.destination() instanceof Destination.File) {
            return planFile(request);
        }
        var s = request.source();
        Target target = Target.of(request);
        var tableRef = new TableRef(target.account(), target.region(), target.tableName());
        boolean records = request.scope() instanceof Scope.Records;
        boolean inPlace = request.destination() instanceof Destination.InPlace;
        Backup base;
        DeltaStager.StagedDelta delta = null;
        SourceRef source;
        if (pointInTime == null) {
            base = backup(request, s.backupId());
            source = sourceRef(request, base, null, null);
        } else {
            var coverage = PitrCoverage.of(catalog.listBackups(s.account(), s.region(), s.table()),
                    catalog.listExports(s.account(), s.region(), s.table()), clock.instant());
            var resolution = coverage.resolve(pointInTime).orElseThrow(() -> new StepException("Table " + s.table()
                    + " can no longer be restored to " + pointInTime + " (a backup expired or an export was removed "
                    + "after the restore was accepted). " + coverage.nearest(pointInTime)));
            base = backup(request, resolution.base().backupId());
            delta = stager.stage(request.restoreId(), resolution,
                    TableSpecs.keyAttributes(base.metadata().tableDescription().keySchema()));
            source = sourceRef(request, base, pointInTime, resolution.exports().size());
            log.info("restore {}: {} of {} from base {} and {} exports: {} changes read, {} keys changed ({} deleted)",
                    request.restoreId(), s.table(), pointInTime, base.backupId(), resolution.exports().size(),
                    delta.changesRead(), delta.keys(), delta.deletes());
        }
        TableDescription table = base.metadata().tableDescription();
        boolean phased = delta != null && delta.keys() > settings.skipKeysLimit();
        if (phased && request.dry()) {
            throw new StepException("A dry run compares each key the restore would write with the table, which needs "
                    + "every key changed since the base backup in writers' memory (" + delta.keys() + " keys are more "
                    + "than planner.pitr.skip-keys-limit = " + settings.skipKeysLimit() + "). Dry-run a point closer "
                    + "to a backup, or raise the limit.");
        }
        if (phased && records) {
            throw new StepException("A record restore needs every key changed since the base backup in writers' memory "
                    + "(" + delta.keys() + " keys are more than planner.pitr.skip-keys-limit = "
                    + settings.skipKeysLimit() + "). Restore to a point closer to a backup, take a new backup, or "
                    + "raise the limit.");
        }
        long puts = delta == null ? 0 : delta.puts();
        long items = base.itemCount() + puts;
        int lsis = restoredLsis(request, base);
        long wcu = writeUnits(base, lsis) + puts * (1 + lsis);
        long bytes = bytes(base);
        var warnings = RestoreValidator.warnings(request, pointInTime);

        String importRefusal = importRefusal(request, target, lsis, phased);
        if (importRefusal == null) {
            double gb = Math.ceil(bytes / GIB * 1000) / 1000;
            long seconds = settings.importOverhead().toSeconds()
                    + bytes / Math.max(1, settings.importBytesPerSecond());
            return RestorePlanned.of(request.restoreId(), Strategy.IMPORT_FROM_S3, source, tableRef, 0, 0, false,
                    items, bytes, wcu, warnings).withEstimates("A new table without local secondary indexes: "
                    + "DynamoDB's ImportTable loads it from a staged copy of the items, billed per GB imported, "
                    + "without consuming write capacity.", gb, seconds);
        }

        int sweepFiles = 0;
        if (inPlace && !records) {
            var sweep = sweeper.stage(request.restoreId(), base, delta, aws.dynamo(target.account(), target.region()),
                    target.tableName(), TableSpecs.keyAttributes(table.keySchema()));
            sweepFiles = sweep.files().size();
            log.info("restore {}: {} of the {} keys of {} are not in the image and will be deleted", request.restoreId(),
                    sweep.deletes(), sweep.tableKeys(), target.tableName());
        }
        int deltaFiles = delta == null ? 0 : delta.files().size();
        var plan = RestorePlanned.of(request.restoreId(), Strategy.ITEM_WRITES, source, tableRef,
                base.files().size() + deltaFiles + sweepFiles, deltaFiles + sweepFiles, phased, items, bytes, wcu,
                warnings).withEstimates(importRefusal, null,
                (wcu + settings.writeUnitsPerSecond() - 1) / Math.max(1, settings.writeUnitsPerSecond()));
        if (!(request.destination() instanceof Destination.NewTable) && !request.dry()) {
            // a dry run writes nothing, so the table's capacity is left as it is
            plan = plan.withCapacity(capacity.plan(tableRef));
        }
        return plan;
    }

    /** Why this restore is not done by ImportTable, or {@code null} when it is. */
    private String importRefusal(RestoreRequested request, Target target, int lsis, boolean phased) {
        if (!(request.destination() instanceof Destination.NewTable)) {
            return "Items are written into the existing table: DynamoDB's ImportTable only creates new tables.";
        }
        if (lsis > 0) {
            return "The restored table has " + lsis + " local secondary index" + (lsis == 1 ? "" : "es")
                    + ", which ImportTable cannot create, so items are written; each write costs its units again "
                    + "for every index that projects the item.";
        }
        if (!settings.importFromS3()) {
            return "Restoring by ImportTable is off (planner.strategy.import-from-s3), so items are written.";
        }
        var region = aws.region(target.account(), target.region());
        if (region == null || !region.supportsImportTable()) {
            return "The DynamoDB endpoint of account " + target.account() + " region " + target.region()
                    + " does not implement ImportTable (import-table is off for it in the account registry, as "
                    + "for a local dynalite), so items are written.";
        }
        if (phased) {
            return "The point in time changed more keys than can be held in memory to stage one copy, so the "
                    + "base and then the changes are written.";
        }
        return null;
    }

    /** Granular recovery: the exporter writes the matching items of the backup to one CSV file. */
    private RestorePlanned planFile(RestoreRequested request) {
        var s = request.source();
        Backup base = backup(request, s.backupId());
        boolean records = request.scope() instanceof Scope.Records;
        long items = Math.min(base.itemCount(), settings.exportCap());
        return RestorePlanned.of(request.restoreId(), Strategy.FILE_EXPORT, sourceRef(request, base, null, null),
                new TableRef(s.account(), s.region(), s.table()), 1, 0, false, items, bytes(base), 0,
                null).withEstimates("Granular recovery: the exporter writes " + (records ? "the matching items"
                + " (at most " + items + ")" : "the " + items + " items") + " of backup " + base.backupId()
                + " to one CSV file for download, at most " + settings.exportCap() + " items; no table is "
                + "written.", null, null);
    }

    /** Hands the export to the exporter; the file lands under {@code _exports/<restoreId>/} in the vault bucket. */
    private SegmentsDispatched dispatchExport(Snapshot view) {
        RestoreRequested request = view.request();
        var s = request.source();
        Backup base = backup(request, s.backupId());
        var key = KeySchema.of(base.metadata().tableDescription());
        var work = io.dynarestore.contracts.work.ExportDispatched.of(request.restoreId(), s.account(), s.region(),
                s.table(), base.backupId(), request.scope() instanceof Scope.Records r ? r : null, key.names(),
                key.types(), catalog.layout().bucket(), exportKey(request.restoreId(), s.table(), base.backupId()),
                settings.exportCap());
        EventPublisher.await(publisher.send(Topic.EXPORTS, Topic.workKey(request.restoreId(), 0), work));
        return SegmentsDispatched.of(request.restoreId(), 1, SegmentsDispatched.Phase.ALL);
    }

    static String exportKey(String restoreId, String table, String backupId) {
        return "_exports/" + restoreId + "/" + table + "-" + backupId + ".csv";
    }

    private RestorePlanned planSnap(RestoreRequested request) {
        var s = request.source();
        SnapMetadata snap = snap(request);
        Target target = Target.of(request);
        TableDescription table = snap.sourceTable();
        long items = table.itemCount() == null ? 0 : table.itemCount();
        long bytes = table.tableSizeBytes() == null ? 0 : table.tableSizeBytes();
        var source = new SourceRef(s.account(), s.region(), s.table(), null, snap.takenAt(), null, null,
                snap.snapId());
        return RestorePlanned.of(request.restoreId(), Strategy.SNAP, source,
                new TableRef(target.account(), target.region(), target.tableName()), 0, 0, false, items, bytes, 0,
                null).withEstimates("A Snap is an AWS-native backup: DynamoDB restores it itself "
                + "(RestoreTableFromBackup) without consuming write capacity.", null, null);
    }

    private static SourceRef sourceRef(RestoreRequested request, Backup backup, Instant pointInTime, Integer exports) {
        var s = request.source();
        return new SourceRef(s.account(), s.region(), s.table(), backup.backupId(), backup.metadata().takenAt(),
                pointInTime, exports);
    }

    private static long bytes(Backup backup) {
        return backup.summary().billedSizeBytes() == null ? 0 : backup.summary().billedSizeBytes();
    }

    /**
     * Units for one write of every item into the restored table: each item's ceil(size / 1 KB),
     * plus the same for every restored LSI that projects it (exact when the backup counted them,
     * else as if every LSI projected every item).
     */
    private static long writeUnits(Backup backup, int lsis) {
        long base = backup.metadata().writeUnits() != null ? backup.metadata().writeUnits()
                : Math.max(backup.itemCount(), (bytes(backup) + 1023) / 1024);
        if (lsis == 0) {
            return base;
        }
        var perIndex = backup.metadata().indexWriteUnits();
        long indexes = 0;
        for (var lsi : backup.metadata().tableDescription().localSecondaryIndexes()) {
            Long units = perIndex == null ? null : perIndex.get(lsi.indexName());
            indexes += units != null ? units : base;
        }
        return base + indexes;
    }

    /** LSIs the restored table has: a new table's unless left out, an existing table's own. */
    private int restoredLsis(RestoreRequested request, Backup backup) {
        TableDescription table = backup.metadata().tableDescription();
        if (request.destination() instanceof Destination.NewTable t) {
            if (!table.hasLocalSecondaryIndexes()) {
                return 0;
            }
            boolean keep = t.options() == null || t.options().includeLocalSecondaryIndexes() == null
                    || t.options().includeLocalSecondaryIndexes();
            return keep ? table.localSecondaryIndexes().size() : 0;
        }
        Target target = Target.of(request);
        TableDescription existing = aws.dynamo(target.account(), target.region())
                .describeTable(b -> b.tableName(target.tableName())).table();
        return existing.hasLocalSecondaryIndexes() ? existing.localSecondaryIndexes().size() : 0;
    }

    private TableSettings tableSettings(RestoreRequested request, Backup backup) {
        var destination = (Destination.NewTable) request.destination();
        var m = backup.metadata();
        return TableSettings.of(request.restoreId(), m.tableDescription(), m.tableTags(), m.ttl(), m.continuous(),
                destination.options());
    }

    private Outcome prepare(Snapshot view) {
        RestoreRequested request = view.request();
        RestorePlanned plan = view.plan();
        TableRef ref = plan.destination();
        if (request.destination() instanceof Destination.NewTable destination) {
            // the table is made like the base backup's (for a point in time, the planned base)
            Backup backup = backup(request, plan.source().backupId());
            try {
                var ready = tables.ensure(request.restoreId(), destination, backup.metadata().tableDescription(),
                        tableSettings(request, backup));
                return Outcome.of(publish(DestinationReady.of(request.restoreId(), ref, true, ready.warnings())));
            } catch (TableCreator.DestinationException e) {
                throw new StepException(e.getMessage());
            }
        }
        // an existing table, or the source itself: raise its capacity first if the plan says so
        var events = new ArrayList<RestoreEvent>();
        var warnings = new ArrayList<String>();
        CapacityPlan capacityPlan = plan.capacity();
        if (capacityPlan != null && capacityPlan.raise()) {
            CapacityRaiseStarted raise = view.capacityRaised();
            if (raise == null) {
                var now = capacity.prepare(ref, capacityPlan);
                if (now.refusal() != null) {
                    warnings.add("Capacity was not raised after all: " + now.refusal());
                } else {
                    // durable before the change: whoever owns the restore after a crash puts these back
                    raise = CapacityRaiseStarted.of(request.restoreId(), ref, now.original(), now.raised());
                    events.add(publish(raise));
                }
            }
            if (raise != null) {
                capacity.raise(ref, raise.raised());
                log.info("restore {}: raised the write capacity of {} to {}", request.restoreId(), ref.tableName(),
                        raise.raised());
            }
        }
        TableWaiter.untilActive(aws.dynamo(ref.account(), ref.region()), ref.tableName(), settings.tableActive());
        events.add(publish(DestinationReady.of(request.restoreId(), ref, false, warnings)));
        return new Outcome(events, null);
    }

    SegmentsDispatched dispatch(RestoreRequested request, RestorePlanned plan, boolean deltaOnly) {
        Backup backup = backup(request, plan.source().backupId());
        var key = KeySchema.of(backup.metadata().tableDescription());
        var target = new SegmentDispatched.WriteTarget(plan.destination().account(), plan.destination().region(),
                plan.destination().tableName(), key.names(), key.types(), lsiSortKeys(request, backup, plan));
        Scope.Records filter = request.scope() instanceof Scope.Records r ? r : null;
        boolean newTable = request.destination() instanceof Destination.NewTable;
        boolean fullInPlace = filter == null && request.destination() instanceof Destination.InPlace;
        var sends = new ArrayList<CompletableFuture<RecordMetadata>>();
        int total = plan.segments();
        DeltaStager.StagedDelta delta = plan.source().pointInTime() == null ? null : stagedDelta(request);
        if (!deltaOnly) {
            DataFile skip = delta == null || delta.keys() == 0 || plan.phased() ? null
                    : new DataFile(delta.bucket(), delta.skipKeys(), delta.keys(), null, "KEY_HASHES");
            List<ManifestFile> files = backup.files();
            for (int i = 0; i < files.size(); i++) {
                sends.add(send(request, SegmentDispatched.of(request.restoreId(), i, total, SegmentDispatched.Role.BASE,
                        dataFile(backup.dataBucket(), files.get(i)), target, skip, false, filter, !newTable)));
            }
        }
        if (deltaOnly || !plan.phased()) {
            int next = plan.baseSegments();
            // deletes are needed where the destination may hold the key: after a phased base, or in place
            boolean applyDeletes = filter == null && (plan.phased() || fullInPlace);
            for (ManifestFile f : delta == null ? List.<ManifestFile>of() : delta.files()) {
                sends.add(send(request, SegmentDispatched.of(request.restoreId(), next++, total,
                        SegmentDispatched.Role.DELTA, dataFile(delta.bucket(), f), target, null, applyDeletes, filter,
                        !newTable)));
            }
            if (fullInPlace) {
                var sweep = sweeper.find(request.restoreId()).orElseThrow(() -> new StepException("The deletes staged "
                        + "for restore " + request.restoreId() + " are missing from the vault; submit it again."));
                for (ManifestFile f : sweep.files()) {
                    sends.add(send(request, SegmentDispatched.of(request.restoreId(), next++, total,
                            SegmentDispatched.Role.DELTA, dataFile(sweep.bucket(), f), target, null, true, null,
                            true)));
                }
            }
        }
        sends.forEach(EventPublisher::await);
        if (deltaOnly) {
            return SegmentsDispatched.of(request.restoreId(), plan.deltaSegments(), SegmentsDispatched.Phase.DELTA);
        }
        return plan.phased()
                ? SegmentsDispatched.of(request.restoreId(), plan.baseSegments(), SegmentsDispatched.Phase.BASE)
                : SegmentsDispatched.of(request.restoreId(), total, SegmentsDispatched.Phase.ALL);
    }

    /** The sort key of each LSI of the destination: what writers count each item's units again for. */
    private List<String> lsiSortKeys(RestoreRequested request, Backup backup, RestorePlanned plan) {
        TableDescription table;
        if (request.destination() instanceof Destination.NewTable) {
            table = restoredLsis(request, backup) == 0 ? null : backup.metadata().tableDescription();
        } else {
            TableRef ref = plan.destination();
            table = aws.dynamo(ref.account(), ref.region()).describeTable(b -> b.tableName(ref.tableName())).table();
        }
        var keys = new ArrayList<String>();
        if (table != null && table.hasLocalSecondaryIndexes()) {
            for (var lsi : table.localSecondaryIndexes()) {
                lsi.keySchema().stream().filter(k -> k.keyType() == software.amazon.awssdk.services.dynamodb.model.KeyType.RANGE)
                        .forEach(k -> keys.add(k.attributeName()));
            }
        }
        return keys.isEmpty() ? null : keys;
    }

    private DeltaStager.StagedDelta stagedDelta(RestoreRequested request) {
        return stager.find(request.restoreId()).orElseThrow(() -> new StepException("The delta staged for restore "
                + request.restoreId() + " is missing from the vault; submit the restore again."));
    }

    private CompletableFuture<RecordMetadata> send(RestoreRequested request, SegmentDispatched work) {
        // a dry run reads and writes nothing; any other restore into a table that may hold the keys
        // journals each key's prior image before changing it
        if (request.dry()) {
            work = work.asDryRun();
        } else if (work.readBeforeWrite()) {
            work = work.journaled(new SegmentDispatched.Journal(catalog.layout().bucket(),
                    io.dynarestore.core.undo.UndoJournal.prefix(request.restoreId())));
        }
        SegmentDispatched out = work;
        return publisher.send(Topic.SEGMENTS, Topic.workKey(request.restoreId(), out.segment()), out);
    }

    private static DataFile dataFile(String bucket, ManifestFile f) {
        return new DataFile(bucket, f.dataFileS3Key(), f.itemCount() == null ? 0 : f.itemCount(), f.md5Checksum(),
                "DYNAMODB_JSON");
    }

    /**
     * Ends a restore whose work is done: verified, it completes; a dry run completes with what
     * it found; a verification that finds a mismatch fails the restore with the details.
     */
    RestoreEvent complete(Snapshot view) {
        RestorePlanned plan = view.plan();
        var counts = plan.strategy() == Strategy.SNAP
                ? new SegmentCompleted.Counts(plan.estimatedItems(), 0, 0, 0, 0) : view.counts();
        long bytes = plan.strategy() == Strategy.SNAP ? plan.estimatedBytes() : view.bytesWritten();
        var completed = RestoreCompleted.of(view.restoreId(), plan.destination(), counts, bytes, plan.segments(),
                Duration.between(view.createdAt(), clock.instant()).toMillis());
        Verification verification = verify(view);
        if (view.dryRun()) {
            completed = completed.dryRun(view.diff() == null ? io.dynarestore.contracts.status.Diff.empty()
                    : view.diff());
        }
        completed = completed.verified(verification);
        discardStaged(view);
        if (verification.failed()) {
            log.warn("restore {} failed its verification: {}", view.restoreId(), verification.mismatches());
            var shown = verification.mismatches().stream().limit(5).toList();
            return RestoreFailed.unverified(view.restoreId(), "Every segment was written, but the verification "
                    + "found " + verification.mismatches().size() + " mismatch"
                    + (verification.mismatches().size() == 1 ? "" : "es") + ": " + String.join("; ", shown)
                    + (shown.size() < verification.mismatches().size() ? "; ..." : "") + ". The items written stay in "
                    + plan.destination().tableName() + (view.request().destination() instanceof Destination.NewTable
                    ? "; restore again into a new table." : "; roll the restore back (POST /restores/"
                    + view.restoreId() + "/rollback) or restore again."), view.itemsWritten(), verification);
        }
        return completed;
    }

    /** The verification of each strategy (see {@link Verifier} for item writes). */
    private Verification verify(Snapshot view) {
        RestorePlanned plan = view.plan();
        if (view.dryRun()) {
            return Verification.skipped("A dry run writes nothing; there is nothing to verify.");
        }
        switch (plan.strategy()) {
            case ITEM_WRITES -> {
                TableRef t = plan.destination();
                return Verifier.verify(plan, view.completedSegments(), view.checks(),
                        aws.dynamo(t.account(), t.region()), t.tableName());
            }
            case IMPORT_FROM_S3 -> {
                long staged = view.importStaged() == null ? 0 : view.importStaged().items();
                long imported = view.importCompleted() == null ? 0 : view.importCompleted().itemsImported();
                if (imported != staged) {
                    return new Verification(Verification.Status.FAILED, 0, imported, null, 0, 0,
                            List.of("DynamoDB's import loaded " + imported + " items but " + staged + " were staged"),
                            "ImportTable's count compared with the staged items.");
                }
                return new Verification(Verification.Status.PASSED, 0, imported, null, 0, 0, List.of(),
                        "DynamoDB's ImportTable loaded all " + staged + " staged items.");
            }
            case FILE_EXPORT -> {
                var e = view.exportCompleted();
                if (e == null) {
                    return Verification.skipped("No file was reported.");
                }
                long expected = e.capped() ? Math.min(e.matching(), settings.exportCap()) : e.matching();
                if (e.items() != expected) {
                    return new Verification(Verification.Status.FAILED, 1, e.items(), e.sha256(), 0, 0,
                            List.of("the file holds " + e.items() + " rows but " + expected + " items match"),
                            "Rows of the file compared with the matching items.");
                }
                return new Verification(Verification.Status.PASSED, 1, e.items(), e.sha256(), 0, 0, List.of(),
                        "The file holds a row for each of the " + expected + " items it should; its SHA-256 is "
                        + e.sha256() + ".");
            }
            default -> {
                return Verification.skipped("DynamoDB restored the table from its own backup; it reports no "
                        + "counts to verify against.");
            }
        }
    }

    private void discardStaged(Snapshot view) {
        RestorePlanned plan = view.plan();
        if (view.pointInTime() != null || plan.deltaSegments() > 0 || plan.strategy() == Strategy.IMPORT_FROM_S3) {
            try {
                stager.discard(view.restoreId());
            } catch (RuntimeException e) {
                log.warn("restore {}: could not remove what it staged (a lifecycle rule on _staging/ will): {}",
                        view.restoreId(), e.toString());
            }
        }
    }

    /**
     * Puts the destination back as it was before the restore, from its undo journal (see
     * {@link io.dynarestore.core.undo.Rollback}). Idempotent: a rollback taken again after a crash
     * finds the keys it put back already as they were.
     */
    private Outcome rollback(Snapshot view) {
        TableRef t = view.plan() == null ? null : view.plan().destination();
        long started = System.nanoTime();
        if (t == null) {
            // it ended before it was planned: no segment went out, so nothing was written or journaled
            return Outcome.of(publish(io.dynarestore.contracts.status.RollbackCompleted.of(view.restoreId(), null, 0,
                    0, 0, 0, 0)));
        }
        try {
            var dynamo = aws.dynamo(t.account(), t.region());
            var keys = TableSpecs.keyAttributes(dynamo.describeTable(b -> b.tableName(t.tableName())).table()
                    .keySchema());
            var result = new io.dynarestore.core.undo.Rollback(aws.s3(), dynamo, t.tableName(), keys,
                    settings.rollbackUnitsPerSecond(), new io.dynarestore.core.retry.Backoff(10,
                    Duration.ofMillis(100), Duration.ofSeconds(10)))
                    .run(catalog.layout().bucket(), io.dynarestore.core.undo.UndoJournal.prefix(view.restoreId()));
            log.info("restore {} rolled back: {} items put back, {} deleted, {} unchanged, from {} journal entries",
                    view.restoreId(), result.restored(), result.deleted(), result.unchanged(), result.entries());
            return Outcome.of(publish(io.dynarestore.contracts.status.RollbackCompleted.of(view.restoreId(), t,
                    result.restored(), result.deleted(), result.unchanged(), result.entries(),
                    (System.nanoTime() - started) / 1_000_000)));
        } catch (RuntimeException e) {
            log.warn("restore {}: rollback failed", view.restoreId(), e);
            return Outcome.of(publish(io.dynarestore.contracts.status.RollbackFailed.of(view.restoreId(),
                    "The rollback of " + t.tableName() + " stopped: "
                    + e.getMessage() + ". Keys put back so far stay put back; ask for the rollback again to finish "
                    + "it (it is idempotent).")));
        }
    }

    // ---- restores by DynamoDB itself: ImportTable and RestoreTableFromBackup ----

    private ImportStaged stageImport(Snapshot view) {
        RestoreRequested request = view.request();
        Backup base = backup(request, view.plan().source().backupId());
        var key = KeySchema.of(base.metadata().tableDescription());
        RecordFilter filter = request.scope() instanceof Scope.Records r ? RecordFilter.compile(r, key) : null;
        var delta = view.pointInTime() == null ? null : stagedDelta(request);
        var staged = importer.stage(request.restoreId(), base, delta, filter, key.names());
        log.info("restore {}: staged {} items ({} bytes) in {} files for ImportTable", request.restoreId(),
                staged.items(), staged.bytes(), staged.files());
        return ImportStaged.of(request.restoreId(), staged.bucket(), staged.prefix(), staged.items(), staged.bytes(),
                staged.files());
    }

    private ImportStarted startImport(Snapshot view) {
        RestoreRequested request = view.request();
        Backup base = backup(request, view.plan().source().backupId());
        TableRef table = view.plan().destination();
        var params = TableSpecs.importParameters(base.metadata().tableDescription(), table.tableName(),
                tableSettings(request, base));
        ImportStaged staged = view.importStaged();
        // the vault's owner, when the table lands in another account (the bucket policy must let it read)
        String owner = table.account().equals(aws.defaultAccount()) ? null : aws.defaultAccount();
        String arn;
        try {
            arn = nativeTables.startImport(table, TableSpecs.importRequest(request.restoreId(), staged.bucket(),
                    staged.prefix(), owner, params));
        } catch (TableCreator.DestinationException e) {
            throw new StepException(e.getMessage());
        }
        log.info("restore {}: import {} started into {}", request.restoreId(), arn, table.tableName());
        return ImportStarted.of(request.restoreId(), arn, table);
    }

    private Outcome awaitImport(Snapshot view) {
        RestoreRequested request = view.request();
        TableRef table = view.plan().destination();
        var events = new ArrayList<RestoreEvent>();
        if (view.importCompleted() == null) {
            var progress = nativeTables.importProgress(table, view.importStarted().importArn());
            if (!progress.done()) {
                return Outcome.later(settings.poll());
            }
            if (!"COMPLETED".equals(progress.status())) {
                return Outcome.of(publish(RestoreFailed.of(request.restoreId(), "DynamoDB's import into "
                        + table.tableName() + " ended " + progress.status() + (progress.failure() == null ? ""
                        : " (" + progress.failure() + ")") + ". Delete the table if DynamoDB created it, and submit "
                        + "the restore again.", progress.itemsImported())));
            }
            if (progress.errors() > 0) {
                return Outcome.of(publish(RestoreFailed.of(request.restoreId(), progress.errors() + " of the "
                        + view.importStaged().items() + " staged items could not be imported into "
                        + table.tableName() + " (DynamoDB logs them to CloudWatch, log group /aws-dynamodb/imports); "
                        + "the table is incomplete.", progress.itemsImported())));
            }
            events.add(publish(ImportCompleted.of(request.restoreId(), view.importStarted().importArn(),
                    progress.itemsImported(), progress.bytesProcessed(), progress.errors())));
        }
        Backup base = backup(request, view.plan().source().backupId());
        events.add(publish(finishNative(request, table, tableSettings(request, base),
                TableFinisher.CreatedBy.IMPORT_TABLE)));
        return new Outcome(events, null);
    }

    private Outcome startSnap(Snapshot view) {
        RestoreRequested request = view.request();
        SnapMetadata snap = snap(request);
        TableRef table = view.plan().destination();
        // recorded first, so that a restarted planner knows the table restored from this backup is ours
        var started = publish(SnapRestoreStarted.of(request.restoreId(), snap.backupArn(), table));
        restoreSnap(request, snap, table);
        log.info("restore {}: DynamoDB restores Snap {} into {}", request.restoreId(), snap.snapId(), table.tableName());
        return Outcome.later(settings.poll(), started);
    }

    private void restoreSnap(RestoreRequested request, SnapMetadata snap, TableRef table) {
        var options = ((Destination.NewTable) request.destination()).options();
        try {
            nativeTables.restoreSnap(table, TableSpecs.snapRequest(snap.backupArn(), snap.sourceTable(),
                    table.tableName(), options, snapSettings(request, snap)));
        } catch (TableCreator.DestinationException e) {
            throw new StepException(e.getMessage());
        }
    }

    private Outcome awaitSnap(Snapshot view) {
        RestoreRequested request = view.request();
        SnapMetadata snap = snap(request);
        TableRef table = view.plan().destination();
        restoreSnap(request, snap, table); // a no-op once started; starts it if the planner died before the call
        if (nativeTables.restoredTable(table).isEmpty()) {
            return Outcome.later(settings.poll());
        }
        return Outcome.of(publish(finishNative(request, table, snapSettings(request, snap),
                TableFinisher.CreatedBy.RESTORE_FROM_BACKUP)));
    }

    private static TableSettings snapSettings(RestoreRequested request, SnapMetadata snap) {
        var features = snap.description() == null ? null : snap.description().sourceTableFeatureDetails();
        return TableSettings.of(request.restoreId(), snap.sourceTable(), List.of(),
                features == null ? null : features.timeToLiveDescription(), null,
                ((Destination.NewTable) request.destination()).options());
    }

    /** Sets what DynamoDB's own restore left out (tags, stream, TTL, PITR, class, protection). */
    private DestinationReady finishNative(RestoreRequested request, TableRef table, TableSettings tableSettings,
                                          TableFinisher.CreatedBy how) {
        var dynamo = aws.dynamo(table.account(), table.region());
        TableDescription d = TableWaiter.untilActive(dynamo, table.tableName(), settings.tableActive());
        var warnings = TableFinisher.finish(dynamo, d, tableSettings, how, settings.tableActive());
        return DestinationReady.of(request.restoreId(), table, true, warnings);
    }

    // ---- capacity ----

    private Outcome putBack(Snapshot view) {
        CapacityRaiseStarted raise = view.capacityRaised();
        var result = capacity.putBack(raise.table(), raise.original());
        if (result instanceof CapacityManager.PutBack.Later later) {
            log.warn("restore {}: {}; trying again in {}", view.restoreId(), later.reason(), settings.putBackRetry());
            return Outcome.later(settings.putBackRetry());
        }
        var done = (CapacityManager.PutBack.Done) result;
        log.info("restore {}: write capacity of {} put back to {}", view.restoreId(), raise.table().tableName(),
                done.restored());
        return Outcome.of(publish(CapacityRestored.of(view.restoreId(), raise.table(), done.restored(), done.note())));
    }

    /** A step cannot go on; the message is the restore's failure reason. */
    static final class StepException extends RuntimeException {
        StepException(String message) {
            super(message);
        }
    }
}
