package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Checks a (defaulted) request against the world before anything is changed: what this version
 * can do, the account registry, the vault (backup exists, not expired) and the destination
 * (a new table must not exist yet, unless this very restore created it). restore-api and the
 * planner run the same checks, so a request is judged the same way on REST and on Kafka.
 */
public final class RestoreValidator {

    /** Tag that marks a table as created by a restore, with the restore's id. */
    public static final String RESTORE_TAG = "dynarestore:restore-id";

    private final VaultCatalog catalog;
    private final AwsClients aws;
    private final Clock clock;

    public RestoreValidator(VaultCatalog catalog, AwsClients aws, Clock clock) {
        this.catalog = catalog;
        this.aws = aws;
        this.clock = clock;
    }

    public Verdict check(RestoreRequested request) {
        Source source = request.source();
        if (source.kind() != Source.Kind.BACKUP) {
            return problem(RejectionCode.UNSUPPORTED, "/source", "Restoring from "
                    + (source.kind() == Source.Kind.SNAP ? "a Snap" : "a point in time")
                    + " is not supported by this version; restore from a backup (source.backupId). "
                    + "List a table's backups with GET /tables/{table}/backups.");
        }
        if (!(request.scope() instanceof Scope.Full)) {
            return problem(RejectionCode.UNSUPPORTED, "/scope",
                    "Record restores (scope RECORDS) are not supported by this version; use scope FULL.");
        }
        if (!(request.destination() instanceof Destination.NewTable destination)) {
            return problem(RejectionCode.UNSUPPORTED, "/destination/type",
                    "Only NEW_TABLE destinations are supported by this version; restore into a new table.");
        }
        if (!aws.allows(source.account(), source.region())) {
            return problem(RejectionCode.UNKNOWN_ACCOUNT, "/source", "Account " + source.account() + " region "
                    + source.region() + " is not in the account registry; use a registered account and region.");
        }
        if (!aws.allows(destination.account(), destination.region())) {
            return problem(RejectionCode.UNKNOWN_ACCOUNT, "/destination", "Account " + destination.account()
                    + " region " + destination.region()
                    + " is not in the account registry; use a registered account and region.");
        }
        Optional<Backup> found = catalog.findBackup(source.account(), source.region(), source.table(),
                source.backupId());
        if (found.isEmpty()) {
            return problem(RejectionCode.BACKUP_NOT_FOUND, "/source/backupId", "There is no backup "
                    + source.backupId() + " of table " + source.table() + " in account " + source.account()
                    + " region " + source.region() + ". List the table's backups with GET /tables/"
                    + source.table() + "/backups and use one of their backupId values.");
        }
        Backup backup = found.get();
        if (backup.metadata().expiredAt(clock.instant())) {
            return problem(RejectionCode.BACKUP_EXPIRED, "/source/backupId", "Backup " + source.backupId()
                    + " of table " + source.table() + " expired at " + backup.metadata().expiresAt()
                    + " and can no longer be restored. Choose an unexpired backup (GET /tables/" + source.table()
                    + "/backups).");
        }
        var options = destination.options();
        TableDescription table = backup.metadata().tableDescription();
        boolean backupHasLsis = table.hasLocalSecondaryIndexes() && !table.localSecondaryIndexes().isEmpty();
        if (options != null && Boolean.TRUE.equals(options.includeLocalSecondaryIndexes()) && !backupHasLsis) {
            return problem(RejectionCode.INVALID_REQUEST, "/destination/options/includeLocalSecondaryIndexes",
                    "Backup " + source.backupId() + " has no local secondary indexes; leave "
                            + "includeLocalSecondaryIndexes out or set it to false.");
        }
        DynamoDbClient dynamo = aws.dynamo(destination.account(), destination.region());
        Optional<TableDescription> existing = describe(dynamo, destination.tableName());
        if (existing.isPresent() && !createdBy(dynamo, existing.get(), request.restoreId())) {
            return problem(RejectionCode.TABLE_EXISTS, "/destination/tableName", "Table " + destination.tableName()
                    + " already exists in account " + destination.account() + " region " + destination.region()
                    + ". Choose another tableName (or leave it out for Restored-<table>-<time>).");
        }
        return new Verdict.Ok(backup, existing.isPresent());
    }

    static Optional<TableDescription> describe(DynamoDbClient dynamo, String table) {
        try {
            return Optional.of(dynamo.describeTable(b -> b.tableName(table)).table());
        } catch (ResourceNotFoundException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code table} carries the tag of restore {@code restoreId}. */
    public static boolean createdBy(DynamoDbClient dynamo, TableDescription table, String restoreId) {
        return dynamo.listTagsOfResource(b -> b.resourceArn(table.tableArn())).tags().stream()
                .anyMatch(t -> RESTORE_TAG.equals(t.key()) && restoreId.equals(t.value()));
    }

    private static Verdict problem(RejectionCode code, String field, String reason) {
        return new Verdict.Problem(code, reason, List.of(new FieldError(field, reason)));
    }

    /** The outcome of the checks. */
    public sealed interface Verdict permits Verdict.Ok, Verdict.Problem {

        /** The request can be carried out from {@code backup}; the table may exist already (ours). */
        record Ok(Backup backup, boolean destinationExists) implements Verdict {
        }

        record Problem(RejectionCode code, String reason, List<FieldError> errors) implements Verdict {
        }
    }
}
