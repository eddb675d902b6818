package io.dynarestore.planner.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.restore.RestoreValidator.Target;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.SnapMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.planner.destination.TableSettings;
import io.dynarestore.planner.restore.RestoreSteps.StepException;
import io.dynarestore.planner.staging.DeltaStager;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * What the steps read of a restore's source after its acceptance: the backup, the Snap and the
 * delta it was planned from, the indexes the restored table has, the settings a new table gets.
 * Something that went missing since (a backup deleted, a staged delta removed) fails the step with
 * what to do.
 */
record Sources(VaultCatalog catalog, DeltaStager stager, AwsClients aws) {

    Backup backup(RestoreRequested request, String backupId) {
        var s = request.source();
        return catalog.findBackup(s.account(), s.region(), s.table(), backupId)
                .orElseThrow(() -> new StepException("Backup " + backupId + " of table " + s.table()
                        + " is no longer in the vault (deleted after the restore was accepted)."));
    }

    SnapMetadata snap(RestoreRequested request) {
        var s = request.source();
        return catalog.findSnap(s.account(), s.region(), s.table(), s.snapId())
                .orElseThrow(() -> new StepException("Snap " + s.snapId() + " of table " + s.table()
                        + " is no longer in the vault (removed after the restore was accepted)."));
    }

    DeltaStager.StagedDelta stagedDelta(RestoreRequested request) {
        return stager.find(request.restoreId())
                .orElseThrow(() -> new StepException("The delta staged for restore " + request.restoreId()
                        + " is missing from the vault; submit the restore again."));
    }

    /** LSIs the restored table has: a new table's unless left out, an existing table's own. */
    int restoredLsis(RestoreRequested request, Backup backup) {
        TableDescription table = backup.metadata().tableDescription();
        if (request.destination() instanceof Destination.NewTable t) {
            if (!table.hasLocalSecondaryIndexes()) {
                return 0;
            }
            boolean keep = t.options() == null
                    || t.options().includeLocalSecondaryIndexes() == null
                    || t.options().includeLocalSecondaryIndexes();
            return keep ? table.localSecondaryIndexes().size() : 0;
        }
        Target target = Target.of(request);
        TableDescription existing = aws.dynamo(target.account(), target.region())
                .describeTable(b -> b.tableName(target.tableName()))
                .table();
        return existing.hasLocalSecondaryIndexes()
                ? existing.localSecondaryIndexes().size()
                : 0;
    }

    static TableSettings tableSettings(RestoreRequested request, Backup backup) {
        var destination = (Destination.NewTable) request.destination();
        var m = backup.metadata();
        return TableSettings.of(
                request.restoreId(),
                m.tableDescription(),
                m.tableTags(),
                m.ttl(),
                m.continuous(),
                destination.options());
    }
}
