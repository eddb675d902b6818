package io.dynarestore.planner.restore;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.DestinationReady;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentsDispatched;
import io.dynarestore.contracts.status.SourceRef;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.contracts.work.SegmentDispatched.DataFile;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.pitr.DeltaStager;
import io.dynarestore.core.pitr.SweepStager;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.restore.RestoreValidator;
import io.dynarestore.core.restore.RestoreValidator.Target;
import io.dynarestore.core.table.TableSpecs;
import io.dynarestore.core.table.TableWaiter;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
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
 * The steps of a restore, each a function of its folded view that publishes the event that moves
 * it on. Each step is safe to run again after a crash: planning is pure (staging a delta again
 * overwrites it), table creation is idempotent by tag, segments dispatched twice are written
 * twice (puts are idempotent) and counted once.
 */
final class RestoreSteps {

    private static final Logger log = LoggerFactory.getLogger(RestoreSteps.class);

    enum Step { PLAN, PREPARE_DESTINATION, DISPATCH, DISPATCH_DELTA, COMPLETE, FAIL }

    private final VaultCatalog catalog;
    private final TableCreator tables;
    private final DeltaStager stager;
    private final SweepStager sweeper;
    private final AwsClients aws;
    private final EventPublisher publisher;
    private final Clock clock;
    private final long skipKeysLimit;
    private final Duration tableActive;

    RestoreSteps(VaultCatalog catalog, TableCreator tables, DeltaStager stager, SweepStager sweeper, AwsClients aws,
                 EventPublisher publisher, Clock clock, long skipKeysLimit, Duration tableActive) {
        this.catalog = catalog;
        this.tables = tables;
        this.stager = stager;
        this.sweeper = sweeper;
        this.aws = aws;
        this.publisher = publisher;
        this.clock = clock;
        this.skipKeysLimit = skipKeysLimit;
        this.tableActive = tableActive;
    }

    /** The step a restore in this state needs next, or {@code null} when it waits for others. */
    static Step next(RestoreView view) {
        if (view.state() == null || view.state().terminal() || view.request() == null) {
            return null;
        }
        switch (view.state()) {
            case ACCEPTED:
                return Step.PLAN;
            case PLANNED:
                return Step.PREPARE_DESTINATION;
            case RUNNING:
                if (!view.dispatched()) {
                    return Step.DISPATCH;
                }
                if (!view.failedSegments().isEmpty()) {
                    return Step.FAIL;
                }
                RestorePlanned plan = view.plan();
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
                    Map<Integer, String> failedSegments) {
        static Snapshot of(RestoreView view) {
            return new Snapshot(view.restoreId(), view.request(), view.pointInTime(), view.plan(),
                    new SegmentCompleted.Counts(view.itemsWritten(), view.itemsOverwritten(), view.itemsUnchanged(),
                            view.itemsDeleted(), 0), view.bytesWritten(), view.createdAt(),
                    new java.util.TreeMap<>(view.failedSegments()));
        }

        long itemsWritten() {
            return counts.written();
        }
    }

    /** Runs a step and returns the events it published. */
    List<RestoreEvent> run(Step step, Snapshot view) {
        RestoreRequested request = view.request();
        return switch (step) {
            case PLAN -> List.of(publish(plan(request, view.pointInTime())));
            case PREPARE_DESTINATION -> List.of(publish(prepare(request, view.plan())));
            case DISPATCH -> List.of(publish(dispatch(request, view.plan(), false)));
            case DISPATCH_DELTA -> List.of(publish(dispatch(request, view.plan(), true)));
            case COMPLETE -> List.of(publish(complete(view)));
            case FAIL -> {
                var failed = view.failedSegments().entrySet().iterator().next();
                yield List.of(publish(RestoreFailed.of(view.restoreId(), "Segment " + failed.getKey() + " of "
                        + view.plan().segments() + " could not be written: " + failed.getValue()
                        + ". Items already written stay in " + view.plan().destination().tableName() + ".",
                        view.itemsWritten())));
            }
        };
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

    RestorePlanned plan(RestoreRequested request, Instant pointInTime) {
        var s = request.source();
        Target target = Target.of(request);
        var tableRef = new TableRef(target.account(), target.region(), target.tableName());
        boolean records = request.scope() instanceof Scope.Records;
        boolean inPlace = request.destination() instanceof Destination.InPlace;
        Backup base;
        DeltaStager.StagedDelta delta = null;
        SourceRef source;
        int exports = 0;
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
            exports = resolution.exports().size();
            delta = stager.stage(request.restoreId(), resolution,
                    TableSpecs.keyAttributes(base.metadata().tableDescription().keySchema()));
            source = sourceRef(request, base, pointInTime, exports);
            log.info("restore {}: {} of {} from base {} and {} exports: {} changes read, {} keys changed ({} deleted)",
                    request.restoreId(), s.table(), pointInTime, base.backupId(), exports, delta.changesRead(),
                    delta.keys(), delta.deletes());
        }
        TableDescription table = base.metadata().tableDescription();
        boolean phased = delta != null && delta.keys() > skipKeysLimit;
        if (phased && records) {
            throw new StepException("A record restore needs every key changed since the base backup in writers' memory "
                    + "(" + delta.keys() + " keys are more than planner.pitr.skip-keys-limit = " + skipKeysLimit
                    + "). Restore to a point closer to a backup, take a new backup, or raise the limit.");
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
        long puts = delta == null ? 0 : delta.puts();
        long wcu = (writeUnits(base) + puts) * (1 + lsis(request, table));
        return RestorePlanned.of(request.restoreId(), RestorePlanned.Strategy.ITEM_WRITES, source, tableRef,
                base.files().size() + deltaFiles + sweepFiles, deltaFiles + sweepFiles, phased,
                base.itemCount() + puts, bytes(base), wcu, RestoreValidator.warnings(request, pointInTime));
    }

    private static SourceRef sourceRef(RestoreRequested request, Backup backup, Instant pointInTime, Integer exports) {
        var s = request.source();
        return new SourceRef(s.account(), s.region(), s.table(), backup.backupId(), backup.metadata().takenAt(),
                pointInTime, exports);
    }

    private static long bytes(Backup backup) {
        return backup.summary().billedSizeBytes() == null ? 0 : backup.summary().billedSizeBytes();
    }

    /** Units for one write of every item: exact when the backup sized its items, else a lower bound. */
    private static long writeUnits(Backup backup) {
        return backup.metadata().writeUnits() != null ? backup.metadata().writeUnits()
                : Math.max(backup.itemCount(), (bytes(backup) + 1023) / 1024);
    }

    /** LSIs the restored table has: every write costs the same units again for each (DESIGN). */
    private static int lsis(RestoreRequested request, TableDescription table) {
        if (!table.hasLocalSecondaryIndexes()) {
            return 0;
        }
        if (request.destination() instanceof Destination.NewTable t && t.options() != null
                && Boolean.FALSE.equals(t.options().includeLocalSecondaryIndexes())) {
            return 0;
        }
        return table.localSecondaryIndexes().size();
    }

    DestinationReady prepare(RestoreRequested request, RestorePlanned plan) {
        Target target = Target.of(request);
        var ref = new TableRef(target.account(), target.region(), target.tableName());
        if (request.destination() instanceof Destination.NewTable destination) {
            // the table is made like the base backup's (for a point in time, the planned base)
            Backup backup = backup(request, plan.source().backupId());
            try {
                tables.ensure(request.restoreId(), destination, backup.metadata().tableDescription(),
                        backup.metadata().tableTags());
            } catch (TableCreator.DestinationException e) {
                throw new StepException(e.getMessage());
            }
            return DestinationReady.of(request.restoreId(), ref, true);
        }
        // an existing table, or the source itself
        TableWaiter.untilActive(aws.dynamo(target.account(), target.region()), target.tableName(), tableActive);
        return DestinationReady.of(request.restoreId(), ref, false);
    }

    SegmentsDispatched dispatch(RestoreRequested request, RestorePlanned plan, boolean deltaOnly) {
        Backup backup = backup(request, plan.source().backupId());
        var key = KeySchema.of(backup.metadata().tableDescription());
        var target = new SegmentDispatched.WriteTarget(plan.destination().account(), plan.destination().region(),
                plan.destination().tableName(), key.names(), key.types());
        Scope.Records filter = request.scope() instanceof Scope.Records r ? r : null;
        boolean newTable = request.destination() instanceof Destination.NewTable;
        boolean fullInPlace = filter == null && request.destination() instanceof Destination.InPlace;
        var sends = new ArrayList<CompletableFuture<RecordMetadata>>();
        int total = plan.segments();
        DeltaStager.StagedDelta delta = plan.source().pointInTime() == null ? null
                : stager.find(request.restoreId()).orElseThrow(() -> new StepException("The delta staged for restore "
                        + request.restoreId() + " is missing from the vault; submit the restore again."));
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

    private CompletableFuture<RecordMetadata> send(RestoreRequested request, SegmentDispatched work) {
        return publisher.send(Topic.SEGMENTS, Topic.workKey(request.restoreId(), work.segment()), work);
    }

    private static DataFile dataFile(String bucket, ManifestFile f) {
        return new DataFile(bucket, f.dataFileS3Key(), f.itemCount() == null ? 0 : f.itemCount(), f.md5Checksum(),
                "DYNAMODB_JSON");
    }

    RestoreCompleted complete(Snapshot view) {
        var completed = RestoreCompleted.of(view.restoreId(), view.plan().destination(), view.counts(),
                view.bytesWritten(), view.plan().segments(), Duration.between(view.createdAt(), clock.instant()).toMillis());
        if (view.pointInTime() != null || view.plan().deltaSegments() > 0) {
            try {
                stager.discard(view.restoreId());
            } catch (RuntimeException e) {
                log.warn("restore {}: could not remove its staged delta (a lifecycle rule on _staging/ will): {}",
                        view.restoreId(), e.toString());
            }
        }
        return completed;
    }

    /** A step cannot go on; the message is the restore's failure reason. */
    static final class StepException extends RuntimeException {
        StepException(String message) {
            super(message);
        }
    }
}
