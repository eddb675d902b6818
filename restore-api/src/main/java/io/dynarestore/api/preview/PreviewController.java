package io.dynarestore.api.preview;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.api.security.Callers;
import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.filter.InvalidFilterException;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.request.RequestReader;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.VaultCatalog;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /restores/preview}: the first records a restore would write, with their columns,
 * for a backup or a point in time, read within a time bound. Nothing is published or written.
 */
@RestController
class PreviewController {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 1_000;
    static final long DEFAULT_TIME_LIMIT_MS = 2_000;
    static final long MAX_TIME_LIMIT_MS = 30_000;

    private final VaultCatalog catalog;
    private final AwsClients aws;
    private final Clock clock;
    private final ApiProperties.Limits limits;

    PreviewController(VaultCatalog catalog, AwsClients aws, Clock clock, ApiProperties properties) {
        this.catalog = catalog;
        this.aws = aws;
        this.clock = clock;
        this.limits = properties.limits();
    }

    /**
     * @param source      as in a restore request: a backup or a point in time of a table
     * @param scope       FULL or RECORDS with filters (default FULL)
     * @param limit       records to return, 1 to 1000 (default 50)
     * @param timeLimitMs how long to read, 1 to 30000 ms (default 2000)
     */
    record PreviewRequest(Source source, Scope scope, Integer limit, Long timeLimitMs) {}

    /**
     * @param keyAttributes the table's key attributes, partition key first (the first of {@code columns})
     * @param records   the records, in DynamoDB JSON
     * @param complete  whether the whole source was read within the limits
     * @param stoppedBy which limit stopped the reading, when one did
     */
    record PreviewResponse(
            String backupId,
            Instant pointInTime,
            List<String> columns,
            List<String> keyAttributes,
            List<JsonNode> records,
            int count,
            boolean complete,
            long scanned,
            long elapsedMs,
            String stoppedBy) {}

    @Operation(
            summary = "Preview the records a restore would write",
            description = "Reads the backup (or the point in time) only until limit records match or timeLimitMs "
                    + "passes; complete says whether the whole source was read.")
    @PostMapping(
            path = "/restores/preview",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    PreviewResponse preview(@RequestBody PreviewRequest body) {
        if (body == null || body.source() == null || body.source().table() == null) {
            throw new ApiProblem(
                    400,
                    "INVALID_REQUEST",
                    "Give source.table and one of source.backupId or " + "source.pointInTime.",
                    List.of(new FieldError("/source", "required")));
        }
        checkedAsARequest(body);
        Bounds bounds = Bounds.of(body);
        Source s = body.source();
        String account = s.account() != null ? s.account() : aws.defaultAccount();
        String region = s.region() != null ? s.region() : aws.defaultRegion();
        Callers.require(
                Access.toReadBackupData(account, aws.defaultAccount()), "Previewing a backup of account " + account);
        if (!aws.allows(account, region)) {
            throw new ApiProblem(
                    422,
                    "UNKNOWN_ACCOUNT",
                    "Account " + account + " region " + region + " is not in the account registry.",
                    null);
        }
        PitrCoverage.Resolution resolution = s.pointInTime() == null ? null : resolve(account, region, s);
        Backup base = base(account, region, s, resolution);
        KeySchema key = KeySchema.of(base.metadata().tableDescription());
        RecordFilter filter = body.scope() instanceof Scope.Records records ? filter(records, key, s) : null;
        var result = new Preview(aws.s3(), catalog, limits.previewMemory().toBytes())
                .run(
                        base,
                        resolution,
                        key,
                        filter,
                        bounds.items(),
                        limits.previewBytes().toBytes(),
                        bounds.time());
        var records = result.records().stream()
                .map(r -> Json.mapper().readTree(DynamoJson.toJson(r)))
                .toList();
        return new PreviewResponse(
                base.backupId(),
                resolution == null ? null : resolution.pointInTime(),
                result.columns(),
                key.names(),
                records,
                records.size(),
                result.complete(),
                result.scanned(),
                result.elapsedMs(),
                result.stoppedBy());
    }

    /** How many items a preview returns at most, and for how long it reads. */
    private record Bounds(int items, Duration time) {

        static Bounds of(PreviewRequest body) {
            int limit = body.limit() == null ? DEFAULT_LIMIT : body.limit();
            long timeLimit = body.timeLimitMs() == null ? DEFAULT_TIME_LIMIT_MS : body.timeLimitMs();
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new ApiProblem(
                        400,
                        "INVALID_REQUEST",
                        "limit must be between 1 and " + MAX_LIMIT + ".",
                        List.of(new FieldError("/limit", "out of range")));
            }
            if (timeLimit < 1 || timeLimit > MAX_TIME_LIMIT_MS) {
                throw new ApiProblem(
                        400,
                        "INVALID_REQUEST",
                        "timeLimitMs must be between 1 and " + MAX_TIME_LIMIT_MS + ".",
                        List.of(new FieldError("/timeLimitMs", "out of range")));
            }
            return new Bounds(limit, Duration.ofMillis(timeLimit));
        }
    }

    /** The backup the preview reads: the one named, or the base of the second named. */
    private Backup base(String account, String region, Source s, PitrCoverage.Resolution resolution) {
        String backupId = resolution == null ? s.backupId() : resolution.base().backupId();
        if (backupId == null) {
            throw new ApiProblem(
                    400,
                    "INVALID_REQUEST",
                    "Give source.backupId or source.pointInTime.",
                    List.of(new FieldError("/source", "names no backup or point in time")));
        }
        return catalog.findBackup(account, region, s.table(), backupId)
                .orElseThrow(() -> ApiProblem.rejected(
                        RejectionCode.BACKUP_NOT_FOUND,
                        "There is no backup " + backupId + " of table " + s.table() + ". List them with GET /tables/"
                                + s.table() + "/backups.",
                        null));
    }

    private static RecordFilter filter(Scope.Records records, KeySchema key, Source s) {
        try {
            return RecordFilter.compile(records, key);
        } catch (InvalidFilterException e) {
            throw ApiProblem.rejected(
                    RejectionCode.INVALID_FILTER,
                    "The filters cannot be applied to table " + s.table() + ": " + e.getMessage() + ".",
                    e.errors());
        }
    }

    /** The base backup and exports of the second a point-in-time preview names, or the problem with it. */
    private PitrCoverage.Resolution resolve(String account, String region, Source s) {
        var coverage = PitrCoverage.of(
                catalog.listBackups(account, region, s.table()),
                catalog.listExports(account, region, s.table()),
                clock.instant());
        Instant t =
                "latest".equals(s.pointInTime()) ? coverage.availability().latestRestorable() : parse(s.pointInTime());
        PitrCoverage.Resolution resolution =
                t == null ? null : coverage.resolve(t).orElse(null);
        if (resolution == null) {
            throw ApiProblem.rejected(
                    RejectionCode.POINT_NOT_RESTORABLE,
                    "Table " + s.table()
                            + " cannot be previewed at " + s.pointInTime() + ". "
                            + coverage.nearest(t == null ? clock.instant() : t),
                    null);
        }
        return resolution;
    }

    /**
     * The source and scope pass the rule of a restore request (the same schema and checks), so
     * that a preview reads nothing a restore could not name: no table name that escapes its
     * prefix, no malformed id or time.
     */
    private static void checkedAsARequest(PreviewRequest body) {
        var candidate = Json.mapper().createObjectNode();
        candidate.set("source", Json.mapper().valueToTree(body.source()));
        if (body.scope() != null) {
            candidate.set("scope", Json.mapper().valueToTree(body.scope()));
        }
        candidate.putObject("destination").put("type", "NEW_TABLE");
        var result = RequestReader.read(Json.toBytes(candidate), "preview");
        if (result instanceof RequestReader.Invalid invalid) {
            throw ApiProblem.rejected(
                    invalid.code(),
                    invalid.reason()
                            .replace(
                                    "RestoreRequested.schema.json",
                                    "the source and scope of RestoreRequested.schema.json"),
                    invalid.errors());
        }
    }

    private static Instant parse(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new ApiProblem(
                    400,
                    "INVALID_REQUEST",
                    "pointInTime '" + text + "' is not an ISO-8601 time such as "
                            + "2026-11-30T10:15:42Z, nor 'latest'.",
                    List.of(new FieldError("/source/pointInTime", "not a time")));
        }
    }
}
