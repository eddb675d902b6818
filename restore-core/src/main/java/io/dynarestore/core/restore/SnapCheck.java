package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.restore.RestoreValidator.Target;
import io.dynarestore.core.restore.RestoreValidator.Verdict;
import io.dynarestore.core.vault.SnapMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The checks of a Snap restore. A Snap is restored by DynamoDB itself (RestoreTableFromBackup):
 * whole, into a new table, in the Snap's own account and region, where the endpoint implements
 * native backups; the Snap must be in the vault's registry and unexpired.
 */
record SnapCheck(VaultCatalog catalog, AwsClients aws, Clock clock, DestinationCheck destinations) {

    Verdict check(RestoreRequested request, Target target) {
        Source source = request.source();
        Verdict misshapen = shape(request, target);
        if (misshapen != null) {
            return misshapen;
        }
        if (!aws.region(target.account(), target.region()).supportsNativeBackups()) {
            return Verdict.problem(
                    RejectionCode.UNSUPPORTED,
                    "/source/snapId",
                    "The DynamoDB endpoint of account "
                            + target.account() + " region " + target.region()
                            + " does not implement RestoreTableFromBackup "
                            + "(native-backups is off for it in the account registry, as for a local dynalite); restore a "
                            + "vault backup (source.backupId) instead.");
        }
        Optional<SnapMetadata> found =
                catalog.findSnap(source.account(), source.region(), source.table(), source.snapId());
        if (found.isEmpty()) {
            return Verdict.problem(
                    RejectionCode.BACKUP_NOT_FOUND,
                    "/source/snapId",
                    "There is no Snap " + source.snapId()
                            + " of table " + source.table() + " in account " + source.account() + " region "
                            + source.region() + ". See the table's calendar (GET /tables/" + source.table()
                            + "/calendar) for its Snaps.");
        }
        SnapMetadata snap = found.get();
        if (snap.expiredAt(clock.instant())) {
            return Verdict.problem(
                    RejectionCode.BACKUP_EXPIRED,
                    "/source/snapId",
                    "Snap " + snap.snapId() + " of table " + source.table() + " expired at " + snap.expiresAt()
                            + " and can no longer be restored.");
        }
        Verdict access = destinations.access(target);
        if (access != null) {
            return access;
        }
        var destination = (Destination.NewTable) request.destination();
        DynamoDbClient dynamo = aws.dynamo(target.account(), target.region());
        Optional<TableDescription> existing = DestinationCheck.describe(dynamo, target.tableName());
        Verdict refused =
                destinations.newTable(destination, snap.sourceTable(), List.of(), target, dynamo, existing, request);
        return refused != null ? refused : new Verdict.Ok(null, snap, existing.isPresent(), null);
    }

    /** What the request asks of a Snap that DynamoDB cannot do: part of it, another table kind or place. */
    private static Verdict shape(RestoreRequested request, Target target) {
        Source source = request.source();
        if (!(request.scope() instanceof Scope.Full)) {
            return Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/scope",
                    "A Snap is restored whole by DynamoDB; a "
                            + "record restore needs a vault backup (source.backupId) or a point in time (source.pointInTime).");
        }
        if (!(request.destination() instanceof Destination.NewTable)) {
            return Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/destination/type",
                    "A Snap can only be restored into a "
                            + "NEW_TABLE; to restore into an existing table or in place, use a vault backup "
                            + "(source.backupId) or a point in time (source.pointInTime).");
        }
        if (!target.account().equals(source.account()) || !target.region().equals(source.region())) {
            return Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    target.account().equals(source.account()) ? "/destination/region" : "/destination/account",
                    "DynamoDB restores a native backup only in "
                            + "its own account and region (" + source.account() + ", " + source.region()
                            + "). Restore the "
                            + "Snap there, or restore a vault backup of the table (source.backupId), which can go to any "
                            + "registered account and region.");
        }
        return null;
    }
}
