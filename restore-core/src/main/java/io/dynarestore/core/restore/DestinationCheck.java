package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.core.aws.AccountAccessException;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.restore.RestoreValidator.Target;
import io.dynarestore.core.restore.RestoreValidator.Verdict;
import io.dynarestore.core.table.RestoreTags;
import io.dynarestore.core.vault.Backup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * The checks of a request's destination table: the restore can act in its account (the role can
 * be assumed); a new table's options can be applied and the table does not exist yet, unless
 * this very restore created it (its tag says so); an existing table, or the source in place,
 * exists with the backup's key schema, and for a full restore into another table is empty.
 */
record DestinationCheck(AwsClients aws, long maxCapacityUnits) {

    /** The destination of a restore from {@code backup}: whether it may be written, and whether it exists. */
    Verdict check(RestoreRequested request, Target target, Backup backup, Instant pointInTime) {
        Verdict access = access(target);
        if (access != null) {
            return access;
        }
        TableDescription table = backup.metadata().tableDescription();
        DynamoDbClient dynamo = aws.dynamo(target.account(), target.region());
        Optional<TableDescription> existing = describe(dynamo, target.tableName());
        Verdict refused = request.destination() instanceof Destination.NewTable destination
                ? newTable(destination, table, backup.metadata().tableTags(), target, dynamo, existing, request)
                : existingTable(request, target, table, dynamo, existing);
        return refused != null ? refused : new Verdict.Ok(backup, null, existing.isPresent(), pointInTime);
    }

    /** A new table: its options apply, and it does not exist unless this restore created it. */
    Verdict newTable(
            Destination.NewTable destination,
            TableDescription table,
            List<Tag> tags,
            Target target,
            DynamoDbClient dynamo,
            Optional<TableDescription> existing,
            RestoreRequested request) {
        Verdict options = options(destination, table, tags, target);
        return options != null ? options : tableExists(dynamo, existing, request, target);
    }

    private static Verdict existingTable(
            RestoreRequested request,
            Target target,
            TableDescription table,
            DynamoDbClient dynamo,
            Optional<TableDescription> existing) {
        boolean inPlace = request.destination() instanceof Destination.InPlace;
        String field = inPlace ? "/source/table" : "/destination/tableName";
        if (existing.isEmpty()) {
            return Verdict.problem(
                    RejectionCode.TABLE_NOT_FOUND,
                    field,
                    "There is no table "
                            + target.tableName() + " in account " + target.account() + " region " + target.region()
                            + (inPlace
                                    ? " to restore in place; restore into a NEW_TABLE instead."
                                    : ". Create it with the backup's key schema, or restore into a NEW_TABLE."));
        }
        String mismatch = keySchemaMismatch(table, existing.get());
        if (mismatch != null) {
            return Verdict.problem(
                    RejectionCode.KEY_SCHEMA_MISMATCH,
                    field,
                    "Table " + target.tableName() + " cannot take the backup's items: " + mismatch + ".");
        }
        // a full restore into another existing table must not mix with what it holds; in place, it replaces it
        if (!inPlace
                && request.scope() instanceof Scope.Full
                && !dynamo.scan(b -> b.tableName(target.tableName()).limit(1))
                        .items()
                        .isEmpty()) {
            return Verdict.problem(
                    RejectionCode.TABLE_NOT_EMPTY,
                    "/destination/tableName",
                    "Table "
                            + target.tableName() + " holds items; a full restore into an existing table needs it empty "
                            + "(empty it, or restore into a NEW_TABLE).");
        }
        return null;
    }

    /** The restore can act in the destination's account (its role can be assumed), or the problem. */
    Verdict access(Target target) {
        try {
            aws.verifyAccess(target.account());
            return null;
        } catch (AccountAccessException e) {
            return Verdict.problem(RejectionCode.ACCESS_DENIED, "/destination/account", e.getMessage());
        }
    }

    private Verdict options(Destination.NewTable destination, TableDescription table, List<Tag> tags, Target target) {
        var errors = new ArrayList<>(TableOptionsCheck.check(destination.options(), table, tags, target.region()));
        errors.addAll(TableOptionsCheck.capacity(destination.options(), table, maxCapacityUnits));
        if (errors.isEmpty()) {
            return null;
        }
        return new Verdict.Problem(
                RejectionCode.INVALID_REQUEST,
                "The options of the new table cannot be applied: "
                        + errors.stream()
                                .map(e -> e.field() + ": " + e.message())
                                .collect(Collectors.joining("; ")) + ".",
                errors);
    }

    private static Verdict tableExists(
            DynamoDbClient dynamo, Optional<TableDescription> existing, RestoreRequested request, Target target) {
        if (existing.isPresent() && !RestoreTags.createdBy(dynamo, existing.get(), request.restoreId())) {
            return Verdict.problem(
                    RejectionCode.TABLE_EXISTS,
                    "/destination/tableName",
                    "Table " + target.tableName()
                            + " already exists in account " + target.account() + " region " + target.region()
                            + ". Choose another tableName (or leave it out for Restored-<table>-<time>), or restore "
                            + "into it as an EXISTING_TABLE if it is empty.");
        }
        return null;
    }

    /** How the destination's key schema differs from the backup table's, or {@code null}. */
    static String keySchemaMismatch(TableDescription backup, TableDescription destination) {
        String want = keySignature(backup);
        String have = keySignature(destination);
        return want.equals(have) ? null : "its key is " + have + " but the backup's is " + want;
    }

    private static String keySignature(TableDescription t) {
        var types = new HashMap<String, String>();
        t.attributeDefinitions().forEach(a -> types.put(a.attributeName(), a.attributeTypeAsString()));
        return t.keySchema().stream()
                .map(k -> k.attributeName() + " (" + types.get(k.attributeName()) + ", " + k.keyTypeAsString() + ")")
                .collect(Collectors.joining(" + "));
    }

    static Optional<TableDescription> describe(DynamoDbClient dynamo, String table) {
        try {
            return Optional.of(dynamo.describeTable(b -> b.tableName(table)).table());
        } catch (ResourceNotFoundException e) {
            return Optional.empty();
        }
    }
}
