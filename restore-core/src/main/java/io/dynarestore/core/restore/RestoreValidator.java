package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.filter.InvalidFilterException;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Checks a (defaulted) request against the world before anything is changed: what this version
 * can do, the account registry, the vault (the backup exists and is unexpired; a point in time
 * is restorable, and {@code latest} is fixed to a second) and the destination (a new table must
 * not exist yet, unless this very restore created it; an existing table must exist, have the
 * backup's key schema and, for a full restore, be empty; in place, the source table must exist with
 * the backup's key schema), and the filters of a record restore against the table's key. restore-api and the
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
        if (source.kind() == Source.Kind.SNAP) {
            return problem(RejectionCode.UNSUPPORTED, "/source/snapId", "Restoring from a Snap is not supported by "
                    + "this version; restore from a backup (source.backupId) or a point in time (source.pointInTime).");
        }
        if (request.destination() instanceof Destination.File) {
            return problem(RejectionCode.UNSUPPORTED, "/destination/type", "Restoring into a FILE (granular "
                    + "recovery) is not supported by this version; restore into a NEW_TABLE, an EXISTING_TABLE or "
                    + "IN_PLACE.");
        }
        if (!aws.allows(source.account(), source.region())) {
            return problem(RejectionCode.UNKNOWN_ACCOUNT, "/source", "Account " + source.account() + " region "
                    + source.region() + " is not in the account registry; use a registered account and region.");
        }
        Target target = Target.of(request);
        if (!aws.allows(target.account(), target.region())) {
            return problem(RejectionCode.UNKNOWN_ACCOUNT, "/destination", "Account " + target.account()
                    + " region " + target.region()
                    + " is not in the account registry; use a registered account and region.");
        }

        Instant pointInTime = null;
        String backupId = source.backupId();
        if (source.kind() == Source.Kind.POINT_IN_TIME) {
            var coverage = PitrCoverage.of(catalog.listBackups(source.account(), source.region(), source.table()),
                    catalog.listExports(source.account(), source.region(), source.table()), clock.instant());
            if ("latest".equals(source.pointInTime())) {
                pointInTime = coverage.availability().latestRestorable();
                if (pointInTime == null) {
                    return problem(RejectionCode.POINT_NOT_RESTORABLE, "/source/pointInTime", "No second of table "
                            + source.table() + " is restorable: it needs an unexpired backup followed by incremental "
                            + "exports. See GET /tables/" + source.table() + "/pitr-windows.");
                }
            } else {
                pointInTime = parseInstant(source.pointInTime());
                if (pointInTime == null) {
                    return problem(RejectionCode.INVALID_REQUEST, "/source/pointInTime", "pointInTime '"
                            + source.pointInTime() + "' is not an ISO-8601 time such as 2026-11-30T10:15:42Z, "
                            + "nor 'latest'.");
                }
                if (pointInTime.getNano() != 0) {
                    return problem(RejectionCode.INVALID_REQUEST, "/source/pointInTime", "pointInTime "
                            + source.pointInTime() + " has a fraction of a second; restores are to whole seconds, "
                            + "such as " + pointInTime.truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + ".");
                }
            }
            var resolution = coverage.resolve(pointInTime);
            if (resolution.isEmpty()) {
                return problem(RejectionCode.POINT_NOT_RESTORABLE, "/source/pointInTime", "Table " + source.table()
                        + " cannot be restored to " + pointInTime + ": no backup and incremental exports cover it. "
                        + coverage.nearest(pointInTime) + " See GET /tables/" + source.table() + "/pitr-windows.");
            }
            backupId = resolution.get().base().backupId();
        }

        Optional<Backup> found = catalog.findBackup(source.account(), source.region(), source.table(), backupId);
        if (found.isEmpty()) {
            return problem(RejectionCode.BACKUP_NOT_FOUND, "/source/backupId", "There is no backup "
                    + backupId + " of table " + source.table() + " in account " + source.account()
                    + " region " + source.region() + ". List the table's backups with GET /tables/"
                    + source.table() + "/backups and use one of their backupId values.");
        }
        Backup backup = found.get();
        if (backup.metadata().expiredAt(clock.instant())) {
            return problem(RejectionCode.BACKUP_EXPIRED, "/source/backupId", "Backup " + backupId
                    + " of table " + source.table() + " expired at " + backup.metadata().expiresAt()
                    + " and can no longer be restored. Choose an unexpired backup (GET /tables/" + source.table()
                    + "/backups).");
        }
        TableDescription table = backup.metadata().tableDescription();
        if (request.scope() instanceof Scope.Records records) {
            try {
                RecordFilter.compile(records, KeySchema.of(table));
            } catch (InvalidFilterException e) {
                return new Verdict.Problem(RejectionCode.INVALID_FILTER, "The filters cannot be applied to table "
                        + source.table() + ": " + e.getMessage() + ".", e.errors());
            }
        }
        DynamoDbClient dynamo = aws.dynamo(target.account(), target.region());
        Optional<TableDescription> existing = describe(dynamo, target.tableName());

        if (request.destination() instanceof Destination.NewTable destination) {
            var options = destination.options();
            boolean backupHasLsis = table.hasLocalSecondaryIndexes() && !table.localSecondaryIndexes().isEmpty();
            if (options != null && Boolean.TRUE.equals(options.includeLocalSecondaryIndexes()) && !backupHasLsis) {
                return problem(RejectionCode.INVALID_REQUEST, "/destination/options/includeLocalSecondaryIndexes",
                        "Backup " + backupId + " has no local secondary indexes; leave "
                                + "includeLocalSecondaryIndexes out or set it to false.");
            }
            if (existing.isPresent() && !createdBy(dynamo, existing.get(), request.restoreId())) {
                return problem(RejectionCode.TABLE_EXISTS, "/destination/tableName", "Table " + target.tableName()
                        + " already exists in account " + target.account() + " region " + target.region()
                        + ". Choose another tableName (or leave it out for Restored-<table>-<time>), or restore "
                        + "into it as an EXISTING_TABLE if it is empty.");
            }
        } else {
            boolean inPlace = request.destination() instanceof Destination.InPlace;
            String field = inPlace ? "/source/table" : "/destination/tableName";
            if (existing.isEmpty()) {
                return problem(RejectionCode.TABLE_NOT_FOUND, field, "There is no table "
                        + target.tableName() + " in account " + target.account() + " region " + target.region()
                        + (inPlace ? " to restore in place; restore into a NEW_TABLE instead."
                        : ". Create it with the backup's key schema, or restore into a NEW_TABLE."));
            }
            String mismatch = keySchemaMismatch(table, existing.get());
            if (mismatch != null) {
                return problem(RejectionCode.KEY_SCHEMA_MISMATCH, field, "Table "
                        + target.tableName() + " cannot take the backup's items: " + mismatch + ".");
            }
            // a full restore into another existing table must not mix with what it holds; in place, it replaces it
            if (!inPlace && request.scope() instanceof Scope.Full
                    && !dynamo.scan(b -> b.tableName(target.tableName()).limit(1)).items().isEmpty()) {
                return problem(RejectionCode.TABLE_NOT_EMPTY, "/destination/tableName", "Table "
                        + target.tableName() + " holds items; a full restore into an existing table needs it empty "
                        + "(empty it, or restore into a NEW_TABLE).");
            }
        }
        return new Verdict.Ok(backup, existing.isPresent(), pointInTime);
    }

    /** What a restore does that cannot be undone, in words for the person who asked for it. */
    public static List<String> warnings(RestoreRequested request, Instant pointInTime) {
        if (request.destination() instanceof Destination.NewTable) {
            return List.of();
        }
        Target target = Target.of(request);
        String at = pointInTime != null ? "as they were at " + pointInTime
                : "as they were in backup " + request.source().backupId();
        if (request.scope() instanceof Scope.Records) {
            return List.of("Items of " + target.tableName() + " that match the filters will be overwritten with the "
                    + "items " + at + ". An overwrite cannot be undone, even if the restore is cancelled.");
        }
        if (request.destination() instanceof Destination.InPlace) {
            return List.of("Table " + target.tableName() + " will be made equal to the table " + at + ": items "
                    + "changed since are overwritten and items created since are deleted. This cannot be undone, "
                    + "even if the restore is cancelled.");
        }
        return List.of();
    }

    private static Instant parseInstant(String text) {
        try {
            return java.time.OffsetDateTime.parse(text).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** How the destination's key schema differs from the backup table's, or {@code null}. */
    static String keySchemaMismatch(TableDescription backup, TableDescription destination) {
        String want = keySignature(backup);
        String have = keySignature(destination);
        return want.equals(have) ? null : "its key is " + have + " but the backup's is " + want;
    }

    private static String keySignature(TableDescription t) {
        var types = new java.util.HashMap<String, String>();
        t.attributeDefinitions().forEach(a -> types.put(a.attributeName(), a.attributeTypeAsString()));
        return t.keySchema().stream()
                .map(k -> k.attributeName() + " (" + types.get(k.attributeName()) + ", " + k.keyTypeAsString() + ")")
                .collect(java.util.stream.Collectors.joining(" + "));
    }

    /** The account, region and name of the table a restore writes into (in place: its source). */
    public record Target(String account, String region, String tableName) {
        public static Target of(RestoreRequested request) {
            Destination destination = request.destination();
            if (destination instanceof Destination.NewTable t) {
                return new Target(t.account(), t.region(), t.tableName());
            }
            if (destination instanceof Destination.ExistingTable t) {
                return new Target(t.account(), t.region(), t.tableName());
            }
            if (destination instanceof Destination.InPlace) {
                var s = request.source();
                return new Target(s.account(), s.region(), s.table());
            }
            throw new IllegalArgumentException("not a table destination: " + destination);
        }
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

        /**
         * The request can be carried out from {@code backup} (for a point-in-time request, the base
         * backup of {@code pointInTime}, the second it resolved to); the table may exist already.
         */
        record Ok(Backup backup, boolean destinationExists, Instant pointInTime) implements Verdict {
        }

        record Problem(RejectionCode code, String reason, List<FieldError> errors) implements Verdict {
        }
    }
}
