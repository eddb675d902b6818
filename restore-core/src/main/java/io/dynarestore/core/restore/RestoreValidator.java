package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.aws.AccountAccessException;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.filter.InvalidFilterException;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.table.TableSettings;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.SnapMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.webhooks.WebhookAddresses;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
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
 * Checks a (defaulted) request against the world before anything is changed: what this version
 * can do, the account registry (and that the destination account's role can be assumed; an
 * in-place restore never crosses accounts or regions), the options of a new table, the vault (the backup exists and is unexpired; a point in time
 * is restorable, and {@code latest} is fixed to a second) and the destination (a new table must
 * not exist yet, unless this very restore created it; an existing table must exist, have the
 * backup's key schema and, for a full restore, be empty; in place, the source table must exist with
 * the backup's key schema), and the filters of a record restore against the table's key. restore-api and the
 * planner run the same checks, so a request is judged the same way on REST and on Kafka.
 */
public final class RestoreValidator {

    /** Tag that marks a table as created by a restore, with the restore's id. */
    public static final String RESTORE_TAG = TableSettings.RESTORE_TAG;

    private final VaultCatalog catalog;
    private final AwsClients aws;
    private final Clock clock;
    private final WebhookAddresses webhooks;
    private final long maxCapacityUnits;

    /**
     * @param webhooks         where webhooks may go (the same rule the notifier applies when it delivers)
     * @param maxCapacityUnits the most read or write capacity units a new table (or one of its GSIs) may get
     */
    public RestoreValidator(VaultCatalog catalog, AwsClients aws, Clock clock, WebhookAddresses webhooks,
                            long maxCapacityUnits) {
        this.catalog = catalog;
        this.aws = aws;
        this.clock = clock;
        this.webhooks = webhooks;
        this.maxCapacityUnits = maxCapacityUnits;
    }

    public Verdict check(RestoreRequested request) {
        Source source = request.source();
        Verdict targets = webhookTargets(request);
        if (targets != null) {
            return targets;
        }
        if (request.dry() && !(request.destination() instanceof Destination.ExistingTable
                || request.destination() instanceof Destination.InPlace)) {
            return problem(RejectionCode.INVALID_REQUEST, "/dryRun", "A dry run shows what a restore would change in "
                    + "a table that holds items: use it with an EXISTING_TABLE or IN_PLACE destination, or leave "
                    + "dryRun out (a new table starts empty, a file changes no table).");
        }
        if (request.destination() instanceof Destination.File file) {
            Verdict refused = fileCheck(source, file);
            if (refused != null) {
                return refused;
            }
        }
        if (request.destination() instanceof Destination.InPlace inPlace) {
            Verdict crossing = inPlaceCrossing(source, inPlace);
            if (crossing != null) {
                return crossing;
            }
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
        if (source.kind() == Source.Kind.SNAP) {
            return checkSnap(request, target);
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
                            + "such as " + pointInTime.truncatedTo(ChronoUnit.SECONDS) + ".");
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
        if (request.destination() instanceof Destination.File) {
            return new Verdict.Ok(backup, null, false, null); // the file goes to the vault: no table is touched
        }
        Verdict access = access(target);
        if (access != null) {
            return access;
        }
        DynamoDbClient dynamo = aws.dynamo(target.account(), target.region());
        Optional<TableDescription> existing = describe(dynamo, target.tableName());

        if (request.destination() instanceof Destination.NewTable destination) {
            Verdict options = options(destination, table, backup.metadata().tableTags(), target);
            if (options != null) {
                return options;
            }
            Verdict exists = tableExists(dynamo, existing, request, target);
            if (exists != null) {
                return exists;
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
        return new Verdict.Ok(backup, null, existing.isPresent(), pointInTime);
    }

    /** Every webhook of the request may be posted to, or the first that may not. */
    private Verdict webhookTargets(RestoreRequested request) {
        var urls = request.notification() == null || request.notification().webhooks() == null ? List.<String>of()
                : request.notification().webhooks();
        for (int i = 0; i < urls.size(); i++) {
            String why = webhooks.refusal(urls.get(i));
            if (why != null) {
                return problem(RejectionCode.INVALID_REQUEST, "/notify/webhooks/" + i, "notify.webhooks[" + i + "] "
                        + why + ".");
            }
        }
        return null;
    }

    /** An in-place restore names the source's account and region or none: it never crosses either. */
    private static Verdict inPlaceCrossing(Source source, Destination.InPlace inPlace) {
        boolean otherAccount = inPlace.account() != null && !inPlace.account().equals(source.account());
        boolean otherRegion = inPlace.region() != null && !inPlace.region().equals(source.region());
        if (!otherAccount && !otherRegion) {
            return null;
        }
        String crossing = otherAccount && otherRegion ? "account " + inPlace.account() + " and region "
                + inPlace.region() : otherAccount ? "account " + inPlace.account() : "region " + inPlace.region();
        return problem(RejectionCode.INVALID_REQUEST, otherAccount ? "/destination/account" : "/destination/region",
                "An in-place restore writes back into the source table " + source.table() + " of account "
                        + source.account() + " region " + source.region() + "; it cannot cross to " + crossing
                        + ". To restore into another account or region, use a NEW_TABLE or EXISTING_TABLE "
                        + "destination with that account and region.");
    }

    /** The restore can act in the destination's account (its role can be assumed), or the problem. */
    private Verdict access(Target target) {
        try {
            aws.verifyAccess(target.account());
            return null;
        } catch (AccountAccessException e) {
            return problem(RejectionCode.ACCESS_DENIED, "/destination/account", e.getMessage());
        }
    }

    private Verdict options(Destination.NewTable destination, TableDescription table,
                            List<Tag> tags, Target target) {
        var errors = new ArrayList<>(TableOptionsCheck.check(destination.options(), table, tags,
                target.region()));
        errors.addAll(TableOptionsCheck.capacity(destination.options(), table, maxCapacityUnits));
        if (errors.isEmpty()) {
            return null;
        }
        return new Verdict.Problem(RejectionCode.INVALID_REQUEST, "The options of the new table cannot be applied: "
                + errors.stream().map(e -> e.field() + ": " + e.message())
                .collect(Collectors.joining("; ")) + ".", errors);
    }

    private static Verdict tableExists(DynamoDbClient dynamo, Optional<TableDescription> existing,
                                       RestoreRequested request, Target target) {
        if (existing.isPresent() && !createdBy(dynamo, existing.get(), request.restoreId())) {
            return problem(RejectionCode.TABLE_EXISTS, "/destination/tableName", "Table " + target.tableName()
                    + " already exists in account " + target.account() + " region " + target.region()
                    + ". Choose another tableName (or leave it out for Restored-<table>-<time>), or restore "
                    + "into it as an EXISTING_TABLE if it is empty.");
        }
        return null;
    }

    /**
     * A Snap is restored by DynamoDB itself (RestoreTableFromBackup): whole, into a new table, in
     * the Snap's own account and region, where the endpoint implements native backups.
     */
    private Verdict checkSnap(RestoreRequested request, Target target) {
        Source source = request.source();
        if (!(request.scope() instanceof Scope.Full)) {
            return problem(RejectionCode.INVALID_REQUEST, "/scope", "A Snap is restored whole by DynamoDB; a "
                    + "record restore needs a vault backup (source.backupId) or a point in time (source.pointInTime).");
        }
        if (!(request.destination() instanceof Destination.NewTable destination)) {
            return problem(RejectionCode.INVALID_REQUEST, "/destination/type", "A Snap can only be restored into a "
                    + "NEW_TABLE; to restore into an existing table or in place, use a vault backup "
                    + "(source.backupId) or a point in time (source.pointInTime).");
        }
        if (!target.account().equals(source.account()) || !target.region().equals(source.region())) {
            return problem(RejectionCode.INVALID_REQUEST, target.account().equals(source.account())
                    ? "/destination/region" : "/destination/account", "DynamoDB restores a native backup only in "
                    + "its own account and region (" + source.account() + ", " + source.region() + "). Restore the "
                    + "Snap there, or restore a vault backup of the table (source.backupId), which can go to any "
                    + "registered account and region.");
        }
        if (!aws.region(target.account(), target.region()).supportsNativeBackups()) {
            return problem(RejectionCode.UNSUPPORTED, "/source/snapId", "The DynamoDB endpoint of account "
                    + target.account() + " region " + target.region() + " does not implement RestoreTableFromBackup "
                    + "(native-backups is off for it in the account registry, as for a local dynalite); restore a "
                    + "vault backup (source.backupId) instead.");
        }
        Optional<SnapMetadata> found = catalog.findSnap(source.account(), source.region(), source.table(),
                source.snapId());
        if (found.isEmpty()) {
            return problem(RejectionCode.BACKUP_NOT_FOUND, "/source/snapId", "There is no Snap " + source.snapId()
                    + " of table " + source.table() + " in account " + source.account() + " region "
                    + source.region() + ". See the table's calendar (GET /tables/" + source.table()
                    + "/calendar) for its Snaps.");
        }
        SnapMetadata snap = found.get();
        if (snap.expiredAt(clock.instant())) {
            return problem(RejectionCode.BACKUP_EXPIRED, "/source/snapId", "Snap " + snap.snapId() + " of table "
                    + source.table() + " expired at " + snap.expiresAt() + " and can no longer be restored.");
        }
        Verdict access = access(target);
        if (access != null) {
            return access;
        }
        Verdict options = options(destination, snap.sourceTable(), List.of(), target);
        if (options != null) {
            return options;
        }
        DynamoDbClient dynamo = aws.dynamo(target.account(), target.region());
        Optional<TableDescription> existing = describe(dynamo, target.tableName());
        Verdict exists = tableExists(dynamo, existing, request, target);
        if (exists != null) {
            return exists;
        }
        return new Verdict.Ok(null, snap, existing.isPresent(), null);
    }

    /**
     * What a restore will change in a table that holds items, and how to see it first and undo it
     * after, in words for the person who asked for it. A dry run changes nothing: no warning.
     */
    public static List<String> warnings(RestoreRequested request, Instant pointInTime) {
        if (request.destination() instanceof Destination.NewTable || request.dry()) {
            return List.of();
        }
        Target target = Target.of(request);
        String at = pointInTime != null ? "as they were at " + pointInTime
                : "as they were in backup " + request.source().backupId();
        String undo = " Each item's current image is saved first in the restore's undo journal: POST /restores/"
                + request.restoreId() + "/rollback puts them back, also after a cancel or a failure, but discards "
                + "what other writers change in those items meanwhile. Run it with \"dryRun\": true first to see "
                + "what would change.";
        if (request.scope() instanceof Scope.Records) {
            return List.of("Items of " + target.tableName() + " that match the filters will be overwritten with the "
                    + "items " + at + "." + undo);
        }
        if (request.destination() instanceof Destination.InPlace) {
            return List.of("Table " + target.tableName() + " will be made equal to the table " + at + ": items "
                    + "changed since are overwritten and items created since are deleted." + undo);
        }
        return List.of();
    }

    private static Instant parseInstant(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
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
        var types = new HashMap<String, String>();
        t.attributeDefinitions().forEach(a -> types.put(a.attributeName(), a.attributeTypeAsString()));
        return t.keySchema().stream()
                .map(k -> k.attributeName() + " (" + types.get(k.attributeName()) + ", " + k.keyTypeAsString() + ")")
                .collect(Collectors.joining(" + "));
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
            if (destination instanceof Destination.InPlace || destination instanceof Destination.File) {
                // in place writes back into the source; a file names the table it came from
                var s = request.source();
                return new Target(s.account(), s.region(), s.table());
            }
            throw new IllegalArgumentException("not a table destination: " + destination);
        }
    }

    /**
     * Granular recovery exports records of a backup (as the spec offers it) and delivers the file
     * for download; a point in time, a Snap or email delivery is refused with what to do instead.
     */
    private static Verdict fileCheck(Source source, Destination.File file) {
        if (source.kind() == Source.Kind.POINT_IN_TIME) {
            return problem(RejectionCode.UNSUPPORTED, "/source/pointInTime", "Granular recovery (a FILE "
                    + "destination) exports the records of a backup, not of a point in time. Name a backupId, or "
                    + "restore the point in time into a NEW_TABLE and export from there.");
        }
        if (source.kind() == Source.Kind.SNAP) {
            return problem(RejectionCode.UNSUPPORTED, "/source/snapId", "A Snap is restored by DynamoDB into a new "
                    + "table, not exported to a file; restore it into a NEW_TABLE, or export a vault backup "
                    + "(source.backupId).");
        }
        if (file.format() != null && !"CSV".equals(file.format())) {
            return problem(RejectionCode.INVALID_REQUEST, "/destination/format", "Files are written as CSV; "
                    + "set format to CSV or leave it out.");
        }
        if (file.delivery() instanceof Destination.Delivery.Email email && email.linkId() == null) {
            return problem(RejectionCode.UNSUPPORTED, "/destination/delivery", "Delivery by email link needs a "
                    + "passcode that only restore-api hands out (once, in its answer); submit this request with "
                    + "POST /restores, or use {\"type\": \"DOWNLOAD\"} and GET /restores/{restoreId}/download.");
        }
        return null;
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
         * backup of {@code pointInTime}, the second it resolved to), or from {@code snap} for a
         * Snap restore; the table may exist already.
         */
        record Ok(Backup backup, SnapMetadata snap, boolean destinationExists, Instant pointInTime)
                implements Verdict {
        }

        record Problem(RejectionCode code, String reason, List<FieldError> errors) implements Verdict {
        }
    }
}
