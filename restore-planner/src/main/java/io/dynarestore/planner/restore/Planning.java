package io.dynarestore.planner.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestorePlanned.Strategy;
import io.dynarestore.contracts.status.SourceRef;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.restore.RestoreValidator.Target;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.SnapMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.capacity.CapacityManager;
import io.dynarestore.planner.fleet.PartFailed;
import io.dynarestore.planner.fleet.SharedDeltas;
import io.dynarestore.planner.fleet.SharedSweeps;
import io.dynarestore.planner.restore.RestoreSteps.StepException;
import io.dynarestore.planner.staging.BacktrackStager;
import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.SweepInput;
import io.dynarestore.planner.staging.SweepStager;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Plans a restore: which strategy (ImportTable for a new table without LSIs where the endpoint
 * has it, a Snap by DynamoDB, a file by the exporter, else item writes), which segments, and the
 * estimates of items, bytes, write units and time. For a point in time it stages the delta (the
 * last change of each key up to T); for a full restore in place, the sweep of keys not in the
 * image. Planning is pure apart from what it stages, which planning again overwrites.
 */
record Planning(
        Sources sources,
        VaultCatalog catalog,
        SharedDeltas deltas,
        SharedSweeps sweeps,
        BacktrackPlanning backtracks,
        CapacityManager capacity,
        AwsClients aws,
        Clock clock,
        PlannerProperties.Pitr pitr,
        PlannerProperties.Strategy strategy,
        ExportSplits exportSplits) {

    private static final Logger log = LoggerFactory.getLogger(Planning.class);
    private static final double GIB = 1024.0 * 1024 * 1024;

    RestorePlanned plan(RestoreRequested request, Instant pointInTime) {
        return plan(request, pointInTime, null);
    }

    /** @param acceptedAt when the restore was accepted: a backtrack waits for the change log to reach it */
    RestorePlanned plan(RestoreRequested request, Instant pointInTime, Instant acceptedAt) {
        if (request.source().snapId() != null) {
            return planSnap(request);
        }
        if (request.destination() instanceof Destination.File) {
            return planFile(request);
        }
        Target target = Target.of(request);
        var tableRef = new TableRef(target.account(), target.region(), target.tableName());
        Image image = image(request, pointInTime, acceptedAt);
        if (image.backtrack() != null) {
            return backtracks.plan(request, image.base(), image.backtrack(), image.source(), tableRef, pointInTime);
        }
        DeltaStager.StagedDelta delta = image.delta();
        boolean phased = delta != null && delta.keys() > pitr.skipKeysLimit();
        refusePhased(request, delta, phased);
        long puts = delta == null ? 0 : delta.puts();
        long items = image.base().itemCount() + puts;
        int lsis = sources.restoredLsis(request, image.base());
        long wcu = writeUnits(image.base(), lsis) + puts * (1 + lsis);
        long bytes = bytes(image.base());
        var warnings = RestoreWarnings.of(request, pointInTime);
        String importRefusal = importRefusal(request, target, lsis, phased);
        if (importRefusal == null) {
            return planImport(request, image, tableRef, items, bytes, wcu, warnings);
        }
        int sweepFiles = sweep(request, target, image);
        int deltaFiles = delta == null ? 0 : delta.files().size();
        var plan = RestorePlanned.of(
                        request.restoreId(),
                        Strategy.ITEM_WRITES,
                        image.source(),
                        tableRef,
                        image.base().files().size() + deltaFiles + sweepFiles,
                        deltaFiles + sweepFiles,
                        phased,
                        items,
                        bytes,
                        wcu,
                        warnings)
                .withEstimates(
                        importRefusal,
                        null,
                        (wcu + strategy.writeUnitsPerSecond() - 1) / Math.max(1, strategy.writeUnitsPerSecond()));
        if (!(request.destination() instanceof Destination.NewTable) && !request.dry()) {
            // a dry run writes nothing, so the table's capacity is left as it is
            plan = plan.withCapacity(capacity.plan(tableRef));
        }
        return plan;
    }

    /** A new table without LSIs, loaded by DynamoDB's ImportTable from a staged copy. */
    private RestorePlanned planImport(
            RestoreRequested request,
            Image image,
            TableRef tableRef,
            long items,
            long bytes,
            long wcu,
            List<String> warnings) {
        double gb = Math.ceil(bytes / GIB * 1000) / 1000;
        long seconds = strategy.importOverhead().toSeconds()
                + bytes / Math.max(1, strategy.importRate().toBytes());
        return RestorePlanned.of(
                        request.restoreId(),
                        Strategy.IMPORT_FROM_S3,
                        image.source(),
                        tableRef,
                        0,
                        0,
                        false,
                        items,
                        bytes,
                        wcu,
                        warnings)
                .withEstimates(
                        "A new table without local secondary indexes: DynamoDB's ImportTable loads it from a staged "
                                + "copy of the items, billed per GB imported, without consuming write capacity.",
                        gb,
                        seconds);
    }

    /**
     * What a restore writes the table from: a base backup, and for a point in time the staged delta
     * up to it; or, for a backtrack, the staged reverts of the keys written since.
     */
    private record Image(
            Backup base, DeltaStager.StagedDelta delta, BacktrackStager.StagedBacktrack backtrack, SourceRef source) {
        Image(Backup base, DeltaStager.StagedDelta delta, SourceRef source) {
            this(base, delta, null, source);
        }
    }

    /** What the vault holds of the source table now: its backups and change log, listed afresh. */
    private PitrCoverage coverage(Source s) {
        return PitrCoverage.of(
                catalog.listBackups(s.account(), s.region(), s.table()),
                catalog.listExports(s.account(), s.region(), s.table()),
                clock.instant());
    }

    private Image image(RestoreRequested request, Instant pointInTime, Instant acceptedAt) {
        var s = request.source();
        if (pointInTime == null) {
            Backup base = sources.backup(request, s.backupId());
            return new Image(base, null, sourceRef(request, base, null, null));
        }
        var coverage = coverage(s);
        var resolution = coverage.resolve(pointInTime)
                .orElseThrow(() -> new StepException("Table " + s.table()
                        + " can no longer be restored to " + pointInTime
                        + " (a backup expired or an export was removed "
                        + "after the restore was accepted). " + coverage.nearest(pointInTime)));
        Backup base = sources.backup(request, resolution.base().backupId());
        var backtrack = backtracks.stage(request, pointInTime, coverage, base, acceptedAt, () -> coverage(s));
        if (backtrack != null) {
            return new Image(
                    base,
                    null,
                    backtrack,
                    sourceRef(request, base, pointInTime, resolution.exports().size()));
        }
        var key = KeySchema.of(base.metadata().tableDescription());
        DeltaStager.StagedDelta delta;
        try {
            delta = deltas.stage(
                    request.restoreId(), resolution, key, request.scope() instanceof Scope.Records r ? r : null);
        } catch (PartFailed e) {
            throw new StepException(e.getMessage());
        }
        log.info(
                "restore {}: {} of {} from base {} and {} exports: {} changes read, {} keys changed ({} deleted)",
                request.restoreId(),
                s.table(),
                pointInTime,
                base.backupId(),
                resolution.exports().size(),
                delta.changesRead(),
                delta.keys(),
                delta.deletes());
        return new Image(
                base,
                delta,
                sourceRef(request, base, pointInTime, resolution.exports().size()));
    }

    /** A dry run and a record restore need every changed key in writers' memory: they cannot be phased. */
    private void refusePhased(RestoreRequested request, DeltaStager.StagedDelta delta, boolean phased) {
        if (phased && request.dry()) {
            throw new StepException("A dry run compares each key the restore would write with the table, which needs "
                    + "every key changed since the base backup in writers' memory (" + delta.keys() + " keys are more "
                    + "than planner.pitr.skip-keys-limit = " + pitr.skipKeysLimit() + "). Dry-run a point closer "
                    + "to a backup, or raise the limit.");
        }
        if (phased && request.scope() instanceof Scope.Records) {
            throw new StepException("A record restore needs every key changed since the base backup in writers' memory "
                    + "(" + delta.keys() + " keys are more than planner.pitr.skip-keys-limit = "
                    + pitr.skipKeysLimit() + "). Restore to a point closer to a backup, take a new backup, or "
                    + "raise the limit.");
        }
    }

    /** For a full restore in place, stages the deletes of the table's keys not in the image; returns its files. */
    private int sweep(RestoreRequested request, Target target, Image image) {
        if (!(request.destination() instanceof Destination.InPlace) || request.scope() instanceof Scope.Records) {
            return 0;
        }
        TableDescription table = image.base().metadata().tableDescription();
        var input = SweepInput.of(
                target.account(),
                target.region(),
                target.tableName(),
                KeySchema.attributeNames(table.keySchema()),
                image.base(),
                image.delta());
        SweepStager.StagedSweep sweep;
        try {
            sweep = sweeps.stage(request.restoreId(), input);
        } catch (PartFailed e) {
            throw new StepException(e.getMessage());
        }
        log.info(
                "restore {}: {} of the {} keys of {} are not in the image and will be deleted",
                request.restoreId(),
                sweep.deletes(),
                sweep.tableKeys(),
                target.tableName());
        return sweep.files().size();
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
        if (!strategy.importFromS3()) {
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

    /**
     * Granular recovery: the exporter writes the matching items of the backup to one CSV file. A
     * large backup's export is split over the exporter replicas ({@link ExportSplits}): its parts
     * are the base segments, and the merge that writes the file is one delta segment after them.
     */
    private RestorePlanned planFile(RestoreRequested request) {
        var s = request.source();
        Backup base = sources.backup(request, s.backupId());
        boolean records = request.scope() instanceof Scope.Records;
        long items = Math.min(base.itemCount(), strategy.exportCap());
        int parts = exportSplits.parts(base);
        boolean split = parts > 1;
        return RestorePlanned.of(
                        request.restoreId(),
                        Strategy.FILE_EXPORT,
                        sourceRef(request, base, null, null),
                        new TableRef(s.account(), s.region(), s.table()),
                        split ? parts + 1 : 1,
                        split ? 1 : 0,
                        split,
                        items,
                        bytes(base),
                        0,
                        null)
                .withEstimates(
                        "Granular recovery: the exporter writes "
                                + (records
                                        ? "the matching items" + " (at most " + items + ")"
                                        : "the " + items + " items")
                                + " of backup " + base.backupId()
                                + " to one CSV file for download, at most " + strategy.exportCap()
                                + " items; no table is "
                                + "written."
                                + (split
                                        ? " The backup's " + base.files().size() + " data files are read in " + parts
                                                + " parts by the exporter replicas at once, then merged."
                                        : ""),
                        null,
                        null);
    }

    private RestorePlanned planSnap(RestoreRequested request) {
        var s = request.source();
        SnapMetadata snap = sources.snap(request);
        Target target = Target.of(request);
        TableDescription table = snap.sourceTable();
        long items = table.itemCount() == null ? 0 : table.itemCount();
        long bytes = table.tableSizeBytes() == null ? 0 : table.tableSizeBytes();
        var source = new SourceRef(s.account(), s.region(), s.table(), null, snap.takenAt(), null, null, snap.snapId());
        return RestorePlanned.of(
                        request.restoreId(),
                        Strategy.SNAP,
                        source,
                        new TableRef(target.account(), target.region(), target.tableName()),
                        0,
                        0,
                        false,
                        items,
                        bytes,
                        0,
                        null)
                .withEstimates(
                        "A Snap is an AWS-native backup: DynamoDB restores it itself "
                                + "(RestoreTableFromBackup) without consuming write capacity.",
                        null,
                        null);
    }

    private static SourceRef sourceRef(RestoreRequested request, Backup backup, Instant pointInTime, Integer exports) {
        var s = request.source();
        return new SourceRef(
                s.account(),
                s.region(),
                s.table(),
                backup.backupId(),
                backup.metadata().takenAt(),
                pointInTime,
                exports);
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
        long base = backup.metadata().writeUnits() != null
                ? backup.metadata().writeUnits()
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
}
