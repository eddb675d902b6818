package io.dynarestore.planner.restore;

import static io.dynarestore.planner.restore.RestoreSteps.publish;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.DestinationReady;
import io.dynarestore.contracts.status.ImportCompleted;
import io.dynarestore.contracts.status.ImportStaged;
import io.dynarestore.contracts.status.ImportStarted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.SnapRestoreStarted;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.SnapMetadata;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.destination.NativeTables;
import io.dynarestore.planner.destination.TableCreator;
import io.dynarestore.planner.destination.TableFinisher;
import io.dynarestore.planner.destination.TableSettings;
import io.dynarestore.planner.destination.TableSpecs;
import io.dynarestore.planner.destination.TableWaiter;
import io.dynarestore.planner.restore.RestoreSteps.Outcome;
import io.dynarestore.planner.restore.RestoreSteps.Snapshot;
import io.dynarestore.planner.restore.RestoreSteps.StepException;
import io.dynarestore.planner.staging.ImportStager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Restores that DynamoDB carries out itself: ImportTable from a staged copy of the items (staged,
 * started by client token, awaited), and RestoreTableFromBackup of a Snap (recorded before it is
 * started, so that a restarted planner knows the table is ours); then the settings those calls
 * cannot give are set. Waiting steps come back after {@code planner.strategy.poll}.
 */
record NativeRestores(
        Sources sources,
        ImportStager importer,
        NativeTables nativeTables,
        AwsClients aws,
        EventPublisher publisher,
        Duration tableActive,
        PlannerProperties.Strategy strategy) {

    private static final Logger log = LoggerFactory.getLogger(NativeRestores.class);

    ImportStaged stageImport(Snapshot view) {
        RestoreRequested request = view.request();
        Backup base = sources.backup(request, view.plan().source().backupId());
        var key = KeySchema.of(base.metadata().tableDescription());
        RecordFilter filter = request.scope() instanceof Scope.Records r ? RecordFilter.compile(r, key) : null;
        var delta = view.pointInTime() == null ? null : sources.stagedDelta(request);
        var staged = importer.stage(request.restoreId(), base, delta, filter, key.names());
        log.info(
                "restore {}: staged {} items ({} bytes) in {} files for ImportTable",
                request.restoreId(),
                staged.items(),
                staged.bytes(),
                staged.files());
        return ImportStaged.of(
                request.restoreId(), staged.bucket(), staged.prefix(), staged.items(), staged.bytes(), staged.files());
    }

    ImportStarted startImport(Snapshot view) {
        RestoreRequested request = view.request();
        Backup base = sources.backup(request, view.plan().source().backupId());
        TableRef table = view.plan().destination();
        var params = TableSpecs.importParameters(
                base.metadata().tableDescription(), table.tableName(), sources.tableSettings(request, base));
        ImportStaged staged = view.importStaged();
        // the vault's owner, when the table lands in another account (the bucket policy must let it read)
        String owner = table.account().equals(aws.defaultAccount()) ? null : aws.defaultAccount();
        String arn;
        try {
            arn = nativeTables.startImport(
                    table,
                    TableSpecs.importRequest(request.restoreId(), staged.bucket(), staged.prefix(), owner, params));
        } catch (TableCreator.DestinationException e) {
            throw new StepException(e.getMessage());
        }
        log.info("restore {}: import {} started into {}", request.restoreId(), arn, table.tableName());
        return ImportStarted.of(request.restoreId(), arn, table);
    }

    Outcome awaitImport(Snapshot view) {
        RestoreRequested request = view.request();
        TableRef table = view.plan().destination();
        var events = new ArrayList<RestoreEvent>();
        if (view.importCompleted() == null) {
            var progress =
                    nativeTables.importProgress(table, view.importStarted().importArn());
            if (!progress.done()) {
                return Outcome.later(strategy.poll());
            }
            if (!"COMPLETED".equals(progress.status())) {
                return Outcome.of(publish(
                        publisher,
                        RestoreFailed.of(
                                request.restoreId(),
                                "DynamoDB's import into "
                                        + table.tableName() + " ended " + progress.status()
                                        + (progress.failure() == null ? "" : " (" + progress.failure() + ")")
                                        + ". Delete the table if DynamoDB created it, and submit "
                                        + "the restore again.",
                                progress.itemsImported())));
            }
            if (progress.errors() > 0) {
                return Outcome.of(publish(
                        publisher,
                        RestoreFailed.of(
                                request.restoreId(),
                                progress.errors()
                                        + " of the "
                                        + view.importStaged().items() + " staged items could not be imported into "
                                        + table.tableName()
                                        + " (DynamoDB logs them to CloudWatch, log group /aws-dynamodb/imports); "
                                        + "the table is incomplete.",
                                progress.itemsImported())));
            }
            events.add(publish(
                    publisher,
                    ImportCompleted.of(
                            request.restoreId(),
                            view.importStarted().importArn(),
                            progress.itemsImported(),
                            progress.bytesProcessed(),
                            progress.errors())));
        }
        Backup base = sources.backup(request, view.plan().source().backupId());
        events.add(publish(
                publisher,
                finishNative(
                        request, table, sources.tableSettings(request, base), TableFinisher.CreatedBy.IMPORT_TABLE)));
        return new Outcome(events, null);
    }

    Outcome startSnap(Snapshot view) {
        RestoreRequested request = view.request();
        SnapMetadata snap = sources.snap(request);
        TableRef table = view.plan().destination();
        // recorded first, so that a restarted planner knows the table restored from this backup is ours
        var started = publish(publisher, SnapRestoreStarted.of(request.restoreId(), snap.backupArn(), table));
        restoreSnap(request, snap, table);
        log.info(
                "restore {}: DynamoDB restores Snap {} into {}", request.restoreId(), snap.snapId(), table.tableName());
        return Outcome.later(strategy.poll(), started);
    }

    private void restoreSnap(RestoreRequested request, SnapMetadata snap, TableRef table) {
        var options = ((Destination.NewTable) request.destination()).options();
        try {
            nativeTables.restoreSnap(
                    table,
                    TableSpecs.snapRequest(
                            snap.backupArn(),
                            snap.sourceTable(),
                            table.tableName(),
                            options,
                            snapSettings(request, snap)));
        } catch (TableCreator.DestinationException e) {
            throw new StepException(e.getMessage());
        }
    }

    Outcome awaitSnap(Snapshot view) {
        RestoreRequested request = view.request();
        SnapMetadata snap = sources.snap(request);
        TableRef table = view.plan().destination();
        restoreSnap(request, snap, table); // a no-op once started; starts it if the planner died before the call
        if (nativeTables.restoredTable(table).isEmpty()) {
            return Outcome.later(strategy.poll());
        }
        return Outcome.of(publish(
                publisher,
                finishNative(
                        request, table, snapSettings(request, snap), TableFinisher.CreatedBy.RESTORE_FROM_BACKUP)));
    }

    private static TableSettings snapSettings(RestoreRequested request, SnapMetadata snap) {
        var features = snap.description() == null ? null : snap.description().sourceTableFeatureDetails();
        return TableSettings.of(
                request.restoreId(),
                snap.sourceTable(),
                List.of(),
                features == null ? null : features.timeToLiveDescription(),
                null,
                ((Destination.NewTable) request.destination()).options());
    }

    /** Sets what DynamoDB's own restore left out (tags, stream, TTL, PITR, class, protection). */
    private DestinationReady finishNative(
            RestoreRequested request, TableRef table, TableSettings tableSettings, TableFinisher.CreatedBy how) {
        var dynamo = aws.dynamo(table.account(), table.region());
        TableDescription d = TableWaiter.untilActive(dynamo, table.tableName(), tableActive);
        var warnings = TableFinisher.finish(dynamo, d, tableSettings, how, tableActive);
        return DestinationReady.of(request.restoreId(), table, true, warnings);
    }
}
