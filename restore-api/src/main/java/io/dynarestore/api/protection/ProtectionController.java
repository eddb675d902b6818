package io.dynarestore.api.protection;

import io.dynarestore.api.catalog.TableRefs;
import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.api.restores.DrillLookup;
import io.dynarestore.api.restores.RestoreSummary;
import io.dynarestore.api.security.Callers;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.protection.BackupMethod;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.core.aws.AwsClients;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * {@code /tables/{table}/protection} and {@code /tables/{table}/backups}: a table's protection
 * policy (full backups on a schedule, a change log, retention), which the protector applies, and
 * on-demand backups. Changing either takes the role {@code protect} (and {@code cross-account} for
 * another account); reading takes {@code read}.
 */
@RestController
class ProtectionController {

    private final Policies policies;
    private final DrillLookup drills;
    private final AwsClients aws;
    private final Clock clock;

    ProtectionController(Policies policies, AwsClients aws, Clock clock, DrillLookup drills) {
        this.drills = drills;
        this.policies = policies;
        this.aws = aws;
        this.clock = clock;
    }

    /**
     * @param backups   how and how often full backups are taken, and how long they are kept
     * @param changeLog where the point-in-time history comes from (absent: none)
     * @param drills    restore drills on a schedule (absent: none; ADR 0044)
     */
    record PolicyBody(
            String account,
            String region,
            ProtectionSet.Backups backups,
            ProtectionSet.ChangeLog changeLog,
            ProtectionSet.Drills drills) {}

    /** A table's policy as the API shows it. */
    record Protection(
            String account,
            String region,
            String table,
            ProtectionSet.Backups backups,
            ProtectionSet.ChangeLog changeLog,
            String setBy,
            Instant setAt,
            Instant backupRequestedAt,
            ProtectionSet.Drills drills,
            LastDrill lastDrill) {
        static Protection of(ProtectionSet p) {
            return of(p, null);
        }

        static Protection of(ProtectionSet p, LastDrill lastDrill) {
            return new Protection(
                    p.account(),
                    p.region(),
                    p.table(),
                    p.backups(),
                    p.changeLog(),
                    p.setBy(),
                    p.occurredAt(),
                    p.backupRequestedAt(),
                    p.drills(),
                    lastDrill);
        }
    }

    /**
     * The table's latest restore drill, from its restore's status: RUNNING while it runs, then PASSED
     * (completed, its verification not failed) or FAILED, with why.
     */
    record LastDrill(String restoreId, String outcome, Instant startedAt, Instant endedAt, String reason) {
        static LastDrill of(RestoreSummary r) {
            boolean ended = r.state() != null && r.state().terminal();
            boolean passed = r.state() == RestoreState.COMPLETED
                    && (r.verification() == null || !r.verification().failed());
            String outcome = !ended ? "RUNNING" : passed ? "PASSED" : "FAILED";
            String reason = passed || !ended
                    ? null
                    : r.reason() != null
                            ? r.reason()
                            : r.verification() != null
                                    ? String.join("; ", r.verification().mismatches())
                                    : null;
            return new LastDrill(r.restoreId(), outcome, r.createdAt(), ended ? r.updatedAt() : null, reason);
        }
    }

    /** An on-demand backup asked for: its id once taken, and where to watch for it. */
    record BackupRequested(String backupId, Instant requestedAt, String backups) {}

    @Operation(
            summary = "Protect a table",
            description =
                    "Sets the table's protection policy: backups every backups.every (ISO-8601, at least PT10S), "
                            + "kept for backups.retention, by SCAN (a paced Scan) or NATIVE_EXPORT (DynamoDB's own export, "
                            + "no read capacity), and a change log: STREAMS (flushed every changeLog.flushEvery, every second "
                            + "since the first backup restorable; changeLog.shardGroups splits its capture over that many "
                            + "protector replicas) or NATIVE_INCREMENTAL (an incremental export every "
                            + "changeLog.flushEvery, 15 minutes to 24 hours, restorable at each export's end). The table must "
                            + "exist; STREAMS needs a NEW_AND_OLD_IMAGES stream, the native methods point-in-time recovery. "
                            + "drills (optional: every, source LATEST_BACKUP or RANDOM_SECOND, maxItems, writeUnits) restores "
                            + "the latest backup or a random restorable second into a scratch table on that schedule, verifies "
                            + "it and deletes it (DrillPassed, DrillFailed on restore.protection.events). Needs the role protect.")
    @PutMapping(
            path = "/tables/{table}/protection",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Protection put(@PathVariable String table, @RequestBody PolicyBody body) {
        if (body == null) {
            throw new ApiProblem(400, "INVALID_REQUEST", "Give the policy: backups and changeLog.", null);
        }
        var ref = TableRefs.of(
                table, body.account(), body.region(), aws, Access::toProtect, "Protecting a table in account");
        var policy = ProtectionSet.of(
                        ref.account(), ref.region(), table, body.backups(), body.changeLog(), Callers.name())
                .withDrills(body.drills());
        var problems = policy.problems();
        if (!problems.isEmpty()) {
            throw new ApiProblem(
                    400,
                    "INVALID_REQUEST",
                    "The policy cannot be applied: " + String.join(" ", problems),
                    problems.stream()
                            .map(p -> new FieldError(p.substring(0, p.indexOf(':')), p.substring(p.indexOf(':') + 2)))
                            .toList());
        }
        TableDescription described = describe(ref.account(), ref.region(), table);
        if (policy.changeLogMethod() == ChangeLogMethod.STREAMS
                && (described.streamSpecification() == null
                        || !Boolean.TRUE.equals(described.streamSpecification().streamEnabled())
                        || described.streamSpecification().streamViewType() != StreamViewType.NEW_AND_OLD_IMAGES)) {
            throw new ApiProblem(
                    422,
                    "INVALID_REQUEST",
                    "Table " + table + " has no NEW_AND_OLD_IMAGES stream, which a "
                            + "STREAMS change log reads. Enable it: aws dynamodb update-table --table-name " + table
                            + " --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES",
                    List.of(new FieldError("/changeLog/method", "the table has no NEW_AND_OLD_IMAGES stream")));
        }
        if ((policy.backups().method() == BackupMethod.NATIVE_EXPORT
                        || policy.changeLogMethod() == ChangeLogMethod.NATIVE_INCREMENTAL)
                && !pointInTimeRecoveryEnabled(ref.account(), ref.region(), table)) {
            throw new ApiProblem(
                    422,
                    "INVALID_REQUEST",
                    "Table " + table + " has no point-in-time recovery, which "
                            + "NATIVE_EXPORT backups and NATIVE_INCREMENTAL change logs export from. Enable it: aws dynamodb "
                            + "update-continuous-backups --table-name " + table
                            + " --point-in-time-recovery-specification "
                            + "PointInTimeRecoveryEnabled=true, or take SCAN backups with a STREAMS change log.",
                    List.of(new FieldError(
                            policy.backups().method() == BackupMethod.NATIVE_EXPORT
                                    ? "/backups/method"
                                    : "/changeLog/method",
                            "the table has no point-in-time recovery")));
        }
        policies.set(policy);
        return Protection.of(policy);
    }

    @Operation(summary = "A table's protection policy", description = "404 when the table is not protected.")
    @GetMapping(path = "/tables/{table}/protection", produces = MediaType.APPLICATION_JSON_VALUE)
    Protection get(
            @PathVariable String table,
            @RequestParam(required = false) String account,
            @RequestParam(required = false) String region) {
        var ref = TableRefs.of(table, account, region, aws, Access::toReadCatalog, "Reading the catalog of account");
        var last = drills.lastDrill(ref.account(), ref.region(), table)
                .map(LastDrill::of)
                .orElse(null);
        return policies.of(ref.account(), ref.region(), table)
                .map(p -> Protection.of(p, last))
                .orElseThrow(() -> notProtected(table));
    }

    @Operation(
            summary = "End a table's protection",
            description = "Backups and change logs already taken stay until they expire. Needs the role protect.")
    @DeleteMapping(path = "/tables/{table}/protection")
    ResponseEntity<Void> delete(
            @PathVariable String table,
            @RequestParam(required = false) String account,
            @RequestParam(required = false) String region) {
        var ref = TableRefs.of(table, account, region, aws, Access::toProtect, "Protecting a table in account");
        policies.end(ref.account(), ref.region(), table);
        return ResponseEntity.noContent().build();
    }

    @Operation(
            summary = "Back a protected table up now",
            description = "Asks the protector for one full backup, by the policy's method and retention. Answers 202 "
                    + "with the id the backup will have; it is listed under /tables/{table}/backups once complete. "
                    + "Needs the role protect.")
    @PostMapping(path = "/tables/{table}/backups", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<BackupRequested> backup(
            @PathVariable String table,
            @RequestParam(required = false) String account,
            @RequestParam(required = false) String region) {
        var ref = TableRefs.of(table, account, region, aws, Access::toProtect, "Protecting a table in account");
        var policy = policies.of(ref.account(), ref.region(), table).orElseThrow(() -> notProtected(table));
        var requested =
                policy.requestingBackup(Instant.ofEpochSecond(clock.instant().getEpochSecond()), Callers.name());
        policies.set(requested);
        return ResponseEntity.accepted()
                .body(new BackupRequested(
                        requested.onDemandBackupId(), requested.backupRequestedAt(), "/tables/" + table + "/backups"));
    }

    private TableDescription describe(String account, String region, String table) {
        try {
            return aws.dynamo(account, region)
                    .describeTable(b -> b.tableName(table))
                    .table();
        } catch (ResourceNotFoundException e) {
            throw new ApiProblem(
                    404,
                    "NOT_FOUND",
                    "Table " + table + " does not exist in account " + account + " region " + region
                            + ": create it before protecting it.",
                    null);
        }
    }

    private boolean pointInTimeRecoveryEnabled(String account, String region, String table) {
        try {
            var pitr = aws.dynamo(account, region)
                    .describeContinuousBackups(b -> b.tableName(table))
                    .continuousBackupsDescription()
                    .pointInTimeRecoveryDescription();
            return pitr != null && pitr.pointInTimeRecoveryStatus() == PointInTimeRecoveryStatus.ENABLED;
        } catch (DynamoDbException e) {
            return false; // an endpoint without the call (dynalite alone) has no recovery to export from
        }
    }

    private static ApiProblem notProtected(String table) {
        return new ApiProblem(
                404,
                "NOT_FOUND",
                "Table " + table + " is not protected: set a policy with PUT " + "/tables/" + table + "/protection.",
                null);
    }
}
