package io.dynarestore.planner.restore;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.SegmentsDispatched;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.contracts.work.ExportDispatched;
import io.dynarestore.contracts.work.ExportMergeDispatched;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.contracts.work.SegmentDispatched.DataFile;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.undo.UndoJournal;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.restore.RestoreSteps.Snapshot;
import io.dynarestore.planner.restore.RestoreSteps.StepException;
import io.dynarestore.planner.staging.BacktrackStager;
import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.SweepStager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Hands a planned restore's work to the writers (SegmentDispatched on restore.segments: the base
 * backup's files with the skip set, then the delta's and the sweep's) or to the exporter. Every
 * segment into a table that may hold its keys is journaled; a dry run's reads and writes nothing.
 * Dispatching twice writes twice, which puts make harmless, and is counted once.
 */
record Dispatching(
        Sources sources,
        VaultCatalog catalog,
        SweepStager sweeper,
        BacktrackStager backtracks,
        AwsClients aws,
        EventPublisher publisher,
        PlannerProperties.Strategy strategy,
        ExportSplits exportSplits) {

    private static final Logger log = LoggerFactory.getLogger(Dispatching.class);

    SegmentsDispatched dispatch(RestoreRequested request, RestorePlanned plan, boolean deltaOnly) {
        Backup backup = sources.backup(request, plan.source().backupId());
        var key = KeySchema.of(backup.metadata().tableDescription());
        var out = new Outbox(
                request,
                plan.segments(),
                new SegmentDispatched.WriteTarget(
                        plan.destination().account(),
                        plan.destination().region(),
                        plan.destination().tableName(),
                        key.names(),
                        key.types(),
                        lsiSortKeys(request, backup, plan)),
                request.scope() instanceof Scope.Records r ? r : null,
                !(request.destination() instanceof Destination.NewTable),
                new ArrayList<>());
        DeltaStager.StagedDelta delta = plan.source().pointInTime() == null ? null : sources.stagedDelta(request);
        // a backtrack has no base: its reverts are all it writes
        if (!deltaOnly && plan.baseSegments() > 0) {
            dispatchBase(out, backup, delta, plan);
        }
        if (deltaOnly || !plan.phased()) {
            dispatchDelta(out, delta, plan);
        }
        out.sends().forEach(EventPublisher::await);
        if (deltaOnly) {
            return SegmentsDispatched.of(request.restoreId(), plan.deltaSegments(), SegmentsDispatched.Phase.DELTA);
        }
        return plan.phased()
                ? SegmentsDispatched.of(request.restoreId(), plan.baseSegments(), SegmentsDispatched.Phase.BASE)
                : SegmentsDispatched.of(request.restoreId(), out.total(), SegmentsDispatched.Phase.ALL);
    }

    /** What every segment of one dispatch shares, and the sends under way. */
    private record Outbox(
            RestoreRequested request,
            int total,
            SegmentDispatched.WriteTarget target,
            Scope.Records filter,
            boolean readBeforeWrite,
            List<CompletableFuture<RecordMetadata>> sends) {

        boolean fullInPlace() {
            return filter == null && request.destination() instanceof Destination.InPlace;
        }
    }

    /** Segments 0..n-1: the backup's data files, skipping the keys a delta rewrites (unless phased). */
    private void dispatchBase(Outbox out, Backup backup, DeltaStager.StagedDelta delta, RestorePlanned plan) {
        DataFile skip = delta == null || delta.keys() == 0 || plan.phased()
                ? null
                : new DataFile(delta.bucket(), delta.skipKeys(), delta.keys(), null, "KEY_HASHES");
        List<ManifestFile> files = backup.files();
        for (int i = 0; i < files.size(); i++) {
            DataFile file = dataFile(backup.dataBucket(), files.get(i));
            out.sends().add(send(out, i, SegmentDispatched.Role.BASE, file, skip, false, out.filter()));
        }
    }

    /** The delta's segments after the base's, then (full in place) the sweep's deletes. */
    private void dispatchDelta(Outbox out, DeltaStager.StagedDelta delta, RestorePlanned plan) {
        int next = plan.baseSegments();
        // deletes are needed where the destination may hold the key: after a phased base, or in place
        boolean applyDeletes = out.filter() == null && (plan.phased() || out.fullInPlace());
        for (ManifestFile f : delta == null ? List.<ManifestFile>of() : delta.files()) {
            DataFile file = dataFile(delta.bucket(), f);
            out.sends().add(send(out, next++, SegmentDispatched.Role.DELTA, file, null, applyDeletes, out.filter()));
        }
        String restoreId = out.request().restoreId();
        if (out.fullInPlace() && backtracks.find(restoreId).isEmpty()) {
            var sweep = sweeper.find(restoreId)
                    .orElseThrow(() -> new StepException("The deletes staged for restore " + restoreId
                            + " are missing from the vault; submit it again."));
            for (ManifestFile f : sweep.files()) {
                DataFile file = dataFile(sweep.bucket(), f);
                out.sends().add(send(out, next++, SegmentDispatched.Role.DELTA, file, null, true, null));
            }
        }
    }

    private CompletableFuture<RecordMetadata> send(
            Outbox out,
            int segment,
            SegmentDispatched.Role role,
            DataFile file,
            DataFile skip,
            boolean applyDeletes,
            Scope.Records filter) {
        return send(
                out.request(),
                SegmentDispatched.of(
                        out.request().restoreId(),
                        segment,
                        out.total(),
                        role,
                        file,
                        out.target(),
                        skip,
                        applyDeletes,
                        filter,
                        out.readBeforeWrite()));
    }

    /**
     * Hands the export to the exporter; the file lands under {@code _exports/<restoreId>/} in the
     * vault bucket. A split export (ADR 0041) goes out as one part per base segment, each to a
     * partition that one exporter replica holds; {@link #dispatchExportMerge} follows once they end.
     */
    SegmentsDispatched dispatchExport(Snapshot view) {
        RestoreRequested request = view.request();
        var s = request.source();
        Backup base = sources.backup(request, s.backupId());
        var work = exportWork(request, base);
        if (!view.plan().phased()) {
            EventPublisher.await(publisher.send(Topic.EXPORTS, Topic.workKey(request.restoreId(), 0), work));
            return SegmentsDispatched.of(request.restoreId(), 1, SegmentsDispatched.Phase.ALL);
        }
        int parts = view.plan().baseSegments();
        int[] cuts = ExportSplits.cuts(base.files(), parts);
        List<Integer> partitions = exportSplits.partitions();
        var sends = new ArrayList<CompletableFuture<RecordMetadata>>();
        for (int p = 0; p < parts; p++) {
            var part = work.part(new ExportDispatched.Split(p, parts, cuts[p], cuts[p + 1], exportStaging(request)));
            String key = Topic.workKey(request.restoreId(), p);
            // one part a replica; where the group cannot be told now, the key spreads them
            sends.add(
                    partitions.isEmpty()
                            ? publisher.send(Topic.EXPORTS, key, part)
                            : publisher.send(Topic.EXPORTS, partitions.get(p % partitions.size()), key, part));
        }
        sends.forEach(EventPublisher::await);
        log.info(
                "restore {}: export split into {} parts over exporter partitions {}",
                request.restoreId(),
                parts,
                partitions);
        return SegmentsDispatched.of(request.restoreId(), parts, SegmentsDispatched.Phase.BASE);
    }

    /** Once every part of a split export has completed: the merge that writes the file. */
    SegmentsDispatched dispatchExportMerge(Snapshot view) {
        RestoreRequested request = view.request();
        var s = request.source();
        Backup base = sources.backup(request, s.backupId());
        int parts = view.plan().baseSegments();
        var merge = ExportMergeDispatched.of(
                request.restoreId(),
                catalog.layout().bucket(),
                exportKey(request.restoreId(), s.table(), base.backupId()),
                exportStaging(request),
                parts,
                KeySchema.of(base.metadata().tableDescription()).names(),
                strategy.exportCap());
        EventPublisher.await(publisher.send(Topic.EXPORTS, Topic.workKey(request.restoreId(), parts), merge));
        return SegmentsDispatched.of(request.restoreId(), 1, SegmentsDispatched.Phase.DELTA);
    }

    private ExportDispatched exportWork(RestoreRequested request, Backup base) {
        var s = request.source();
        var key = KeySchema.of(base.metadata().tableDescription());
        return ExportDispatched.of(
                request.restoreId(),
                s.account(),
                s.region(),
                s.table(),
                base.backupId(),
                request.scope() instanceof Scope.Records r ? r : null,
                key.names(),
                key.types(),
                catalog.layout().bucket(),
                exportKey(request.restoreId(), s.table(), base.backupId()),
                strategy.exportCap());
    }

    /** Where a split export's parts are staged: in the restore's staging folder, discarded when it ends. */
    private String exportStaging(RestoreRequested request) {
        return catalog.layout().stagingPrefix(request.restoreId()) + "export-parts/";
    }

    static String exportKey(String restoreId, String table, String backupId) {
        return "_exports/" + restoreId + "/" + table + "-" + backupId + ".csv";
    }

    /** The sort key of each LSI of the destination: what writers count each item's units again for. */
    private List<String> lsiSortKeys(RestoreRequested request, Backup backup, RestorePlanned plan) {
        TableDescription table;
        if (request.destination() instanceof Destination.NewTable) {
            table = sources.restoredLsis(request, backup) == 0
                    ? null
                    : backup.metadata().tableDescription();
        } else {
            TableRef ref = plan.destination();
            table = aws.dynamo(ref.account(), ref.region())
                    .describeTable(b -> b.tableName(ref.tableName()))
                    .table();
        }
        var keys = new ArrayList<String>();
        if (table != null && table.hasLocalSecondaryIndexes()) {
            for (var lsi : table.localSecondaryIndexes()) {
                lsi.keySchema().stream()
                        .filter(k -> k.keyType() == KeyType.RANGE)
                        .forEach(k -> keys.add(k.attributeName()));
            }
        }
        return keys.isEmpty() ? null : keys;
    }

    private CompletableFuture<RecordMetadata> send(RestoreRequested request, SegmentDispatched work) {
        // a dry run reads and writes nothing; any other restore into a table that may hold the keys
        // journals each key's prior image before changing it
        if (request.dry()) {
            work = work.asDryRun();
        } else if (work.readBeforeWrite()) {
            work = work.journaled(
                    new SegmentDispatched.Journal(catalog.layout().bucket(), UndoJournal.prefix(request.restoreId())));
        }
        // a strict undo writes each revert only where the key still holds its last image in the change log
        if (work.role() == SegmentDispatched.Role.DELTA
                && request.source().undo() != null
                && request.source().undo().conditional()) {
            work = work.withConditions();
        }
        SegmentDispatched out = work;
        return publisher.send(Topic.SEGMENTS, Topic.workKey(request.restoreId(), out.segment()), out);
    }

    private static DataFile dataFile(String bucket, ManifestFile f) {
        return new DataFile(
                bucket,
                f.dataFileS3Key(),
                f.itemCount() == null ? 0 : f.itemCount(),
                f.md5Checksum(),
                f.dataFileS3Key().endsWith(".ion.gz") ? "ION" : "DYNAMODB_JSON");
    }
}
