package io.dynarestore.testkit;

import io.dynarestore.testkit.StreamLog.StreamsError;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * DynamoDB's point-in-time recovery and export calls for {@link StreamsEndpoint}, which dynalite
 * lacks: {@code UpdateContinuousBackups} and {@code DescribeContinuousBackups} (recovery enabled
 * per table; from then on the endpoint keeps the table's {@link TableHistory}),
 * {@code ExportTableToPointInTime} (FULL_EXPORT and INCREMENTAL_EXPORT, DYNAMODB_JSON),
 * {@code DescribeExport} and {@code ListExports}. Every request is first checked against AWS's
 * model of the API ({@link ApiShapes}) and refused as DynamoDB would refuse it. An export runs on
 * its own thread, IN_PROGRESS until its files are in S3, laid out as DynamoDB lays them out:
 * {@code <S3Prefix>/AWSDynamoDB/<ExportId>/} with {@code _started}, {@code data/*.json.gz},
 * {@code manifest-files.json} and, last, {@code manifest-summary.json}. An incremental export holds
 * each key written in [ExportFromTime, ExportToTime) once: its image before the window and after it.
 */
final class ExportsApi implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What the endpoint lends the exports: dynalite, and the table's write lock. */
    interface Tables {
        JsonNode call(String op, ObjectNode request);

        <T> T locked(String table, Supplier<T> action);
    }

    private final Tables tables;
    private final Clock clock;
    private final String account;
    private final Map<String, TableHistory> histories = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> exports = new ConcurrentHashMap<>();
    private final Map<String, String> byClientToken = new ConcurrentHashMap<>();
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "testkit-exports");
        t.setDaemon(true);
        return t;
    });
    private volatile S3Client s3;
    private volatile Duration shortestIncremental = Duration.ofMinutes(15);

    ExportsApi(Tables tables, Clock clock, String account) {
        this.tables = tables;
        this.clock = clock;
        this.account = account;
    }

    void writeTo(S3Client s3) {
        this.s3 = s3;
    }

    void shortestIncremental(Duration shortest) {
        this.shortestIncremental = shortest;
    }

    /** The history of {@code table}, if its point-in-time recovery is enabled. */
    TableHistory history(String table) {
        return histories.get(table);
    }

    void tableDeleted(String table) {
        histories.remove(table);
    }

    boolean handles(String op) {
        return switch (op) {
            case "UpdateContinuousBackups",
                    "DescribeContinuousBackups",
                    "ExportTableToPointInTime",
                    "DescribeExport",
                    "ListExports" -> true;
            default -> false;
        };
    }

    ObjectNode answer(String op, ObjectNode request, String region) throws StreamsError {
        List<String> violations = ApiShapes.dynamodb().violations(op, request);
        if (!violations.isEmpty()) {
            throw new StreamsError("ValidationException", String.join("; ", violations));
        }
        return switch (op) {
            case "UpdateContinuousBackups" -> updateContinuousBackups(request, region);
            case "DescribeContinuousBackups" ->
                continuousBackups(request.path("TableName").asString(), region);
            case "ExportTableToPointInTime" -> exportTable(request);
            case "DescribeExport" -> describeExport(request.path("ExportArn").asString());
            default -> listExports(request);
        };
    }

    // ---- point-in-time recovery ----

    private ObjectNode updateContinuousBackups(ObjectNode request, String region) throws StreamsError {
        String table = request.path("TableName").asString();
        JsonNode described = describe(table);
        boolean enable = request.path("PointInTimeRecoverySpecification")
                .path("PointInTimeRecoveryEnabled")
                .asBoolean();
        if (enable) {
            histories.computeIfAbsent(table, t -> new TableHistory(described.path("KeySchema"), clock.instant()));
        } else {
            histories.remove(table);
        }
        return continuousBackups(table, region);
    }

    private ObjectNode continuousBackups(String table, String region) throws StreamsError {
        describe(table);
        TableHistory history = histories.get(table);
        ObjectNode answer = JSON.createObjectNode();
        ObjectNode d = answer.putObject("ContinuousBackupsDescription");
        d.put("ContinuousBackupsStatus", "ENABLED");
        ObjectNode pitr = d.putObject("PointInTimeRecoveryDescription");
        pitr.put("PointInTimeRecoveryStatus", history == null ? "DISABLED" : "ENABLED");
        if (history != null) {
            pitr.put("RecoveryPeriodInDays", 35);
            pitr.put("EarliestRestorableDateTime", seconds(history.since()));
            pitr.put("LatestRestorableDateTime", seconds(clock.instant()));
        }
        return answer;
    }

    private JsonNode describe(String table) throws StreamsError {
        ObjectNode request = JSON.createObjectNode();
        request.put("TableName", table);
        JsonNode answer = tables.call("DescribeTable", request);
        if (!answer.has("Table")) {
            throw new StreamsError("TableNotFoundException", "Table not found: " + table);
        }
        return answer.path("Table");
    }

    // ---- exports ----

    private ObjectNode exportTable(ObjectNode request) throws StreamsError {
        String tableArn = request.path("TableArn").asString();
        String table = tableArn.substring(tableArn.indexOf(":table/") + ":table/".length());
        String token = request.path("ClientToken").asString(null);
        if (token != null && byClientToken.containsKey(token)) {
            ObjectNode earlier = exports.get(byClientToken.get(token));
            if (!earlier.path("Request").equals(request)) {
                throw new StreamsError(
                        "ExportConflictException",
                        "An export with client token " + token + " and other parameters exists: "
                                + earlier.path("Description").path("ExportArn").asString());
            }
            return described(earlier);
        }
        TableHistory history = histories.get(table);
        describe(table);
        if (history == null) {
            throw new StreamsError(
                    "PointInTimeRecoveryUnavailableException",
                    "Point in time recovery is not enabled for table '" + table + "'");
        }
        if (s3 == null) {
            throw new StreamsError("InternalServerError", "this endpoint was given no S3 to export into");
        }
        Instant now = clock.instant();
        boolean incremental =
                "INCREMENTAL_EXPORT".equals(request.path("ExportType").asString("FULL_EXPORT"));
        Instant at = request.has("ExportTime") ? time(request.path("ExportTime")) : now;
        Instant from = null;
        Instant to = null;
        if (incremental) {
            JsonNode spec = request.path("IncrementalExportSpecification");
            if (!spec.has("ExportFromTime")) {
                throw new StreamsError("ValidationException", "ExportFromTime is required for an incremental export");
            }
            from = time(spec.path("ExportFromTime"));
            to = spec.has("ExportToTime") ? time(spec.path("ExportToTime")) : now;
            inWindow(history, from, now, "ExportFromTime");
            inWindow(history, to, now, "ExportToTime");
            Duration period = Duration.between(from, to);
            if (period.compareTo(shortestIncremental) < 0 || period.compareTo(Duration.ofHours(24)) > 0) {
                throw new StreamsError(
                        "ValidationException",
                        "The incremental export period must be between " + shortestIncremental.toMinutes()
                                + " minutes and 24 hours, not " + period);
            }
        } else {
            inWindow(history, at, now, "ExportTime");
        }
        String id = String.format(
                "%014d-%08x", now.toEpochMilli(), ThreadLocalRandom.current().nextInt());
        String arn = tableArn + "/export/" + id;
        ObjectNode description = JSON.createObjectNode();
        description.put("ExportArn", arn);
        description.put("ExportStatus", "IN_PROGRESS");
        description.put("StartTime", seconds(now));
        description.put("TableArn", tableArn);
        description.put(
                "TableId",
                UUID.nameUUIDFromBytes(tableArn.getBytes(StandardCharsets.UTF_8))
                        .toString());
        if (!incremental) {
            description.put("ExportTime", seconds(at));
        }
        if (token != null) {
            description.put("ClientToken", token);
        }
        description.put("S3Bucket", request.path("S3Bucket").asString());
        if (request.has("S3Prefix")) {
            description.put("S3Prefix", request.path("S3Prefix").asString());
        }
        description.put("S3SseAlgorithm", request.path("S3SseAlgorithm").asString("AES256"));
        description.put("ExportFormat", request.path("ExportFormat").asString("DYNAMODB_JSON"));
        description.put("ExportType", incremental ? "INCREMENTAL_EXPORT" : "FULL_EXPORT");
        if (incremental) {
            ObjectNode spec = description.putObject("IncrementalExportSpecification");
            spec.put("ExportFromTime", seconds(from));
            spec.put("ExportToTime", seconds(to));
            spec.put(
                    "ExportViewType",
                    request.path("IncrementalExportSpecification")
                            .path("ExportViewType")
                            .asString("NEW_AND_OLD_IMAGES"));
        }
        ObjectNode export = JSON.createObjectNode();
        export.set("Request", request);
        export.set("Description", description);
        exports.put(arn, export);
        if (token != null) {
            byClientToken.put(token, arn);
        }
        Instant exportAt = at;
        Instant exportFrom = from;
        Instant exportTo = to;
        runner.submit(() -> run(export, table, history, exportAt, exportFrom, exportTo));
        return described(export);
    }

    private static void inWindow(TableHistory history, Instant t, Instant now, String field) throws StreamsError {
        if (t.isBefore(history.since()) || t.isAfter(now)) {
            throw new StreamsError(
                    "InvalidExportTimeException",
                    field + " " + t + " is not within the point in " + "time recovery window (" + history.since()
                            + " to " + now + ")");
        }
    }

    private void run(ObjectNode export, String table, TableHistory history, Instant at, Instant from, Instant to) {
        ObjectNode d;
        synchronized (export) {
            d = (ObjectNode) export.path("Description").deepCopy();
        }
        try {
            List<ObjectNode> lines = from == null
                    ? fullLines(table, history, at)
                    : incrementalLines(
                            history,
                            from,
                            to,
                            d.path("IncrementalExportSpecification")
                                    .path("ExportViewType")
                                    .asString());
            new ExportFiles(s3, clock).write(d, lines);
            d.put("ExportStatus", "COMPLETED");
        } catch (RuntimeException e) {
            d.put("ExportStatus", "FAILED");
            d.put(
                    "FailureCode",
                    e instanceof S3Exception s3e ? "S3" + s3e.awsErrorDetails().errorCode() : "UNKNOWN");
            d.put("FailureMessage", String.valueOf(e.getMessage()));
        }
        d.put("EndTime", seconds(clock.instant()));
        synchronized (export) {
            export.set("Description", d);
        }
    }

    private List<ObjectNode> fullLines(String table, TableHistory history, Instant at) {
        Map<ObjectNode, JsonNode> current = tables.locked(table, () -> scan(table, history.keySchema()));
        var lines = new ArrayList<ObjectNode>();
        for (JsonNode item : history.imageAt(at, current).values()) {
            ObjectNode line = JSON.createObjectNode();
            line.set("Item", item);
            lines.add(line);
        }
        return lines;
    }

    private Map<ObjectNode, JsonNode> scan(String table, JsonNode keySchema) {
        var items = new LinkedHashMap<ObjectNode, JsonNode>();
        JsonNode start = null;
        do {
            ObjectNode request = JSON.createObjectNode();
            request.put("TableName", table);
            request.put("ConsistentRead", true);
            if (start != null) {
                request.set("ExclusiveStartKey", start);
            }
            JsonNode page = tables.call("Scan", request);
            if (!page.has("Items")) {
                throw new IllegalStateException("the table could not be read: " + page);
            }
            for (JsonNode item : page.path("Items")) {
                ObjectNode key = JSON.createObjectNode();
                keySchema.forEach(k -> key.set(
                        k.path("AttributeName").asString(),
                        item.path(k.path("AttributeName").asString())));
                items.put(key, item);
            }
            start = page.has("LastEvaluatedKey") ? page.path("LastEvaluatedKey") : null;
        } while (start != null);
        return items;
    }

    private static List<ObjectNode> incrementalLines(TableHistory history, Instant from, Instant to, String view) {
        var lines = new ArrayList<ObjectNode>();
        for (TableHistory.Change c : history.changes(from, to)) {
            if (c.before() == null && c.after() == null) {
                continue; // created and deleted inside the window: nothing to tell
            }
            ObjectNode line = JSON.createObjectNode();
            line.putObject("Metadata").putObject("WriteTimestampMicros").put("N", Long.toString(c.micros()));
            line.set("Keys", c.key());
            if (c.before() != null && "NEW_AND_OLD_IMAGES".equals(view)) {
                line.set("OldImage", c.before());
            }
            if (c.after() != null) {
                line.set("NewImage", c.after());
            }
            lines.add(line);
        }
        return lines;
    }

    private ObjectNode describeExport(String arn) throws StreamsError {
        ObjectNode export = exports.get(arn);
        if (export == null) {
            throw new StreamsError("ExportNotFoundException", "Export not found: " + arn);
        }
        return described(export);
    }

    private static ObjectNode described(ObjectNode export) {
        ObjectNode answer = JSON.createObjectNode();
        synchronized (export) {
            answer.set("ExportDescription", export.path("Description").deepCopy());
        }
        return answer;
    }

    private ObjectNode listExports(ObjectNode request) {
        String tableArn = request.path("TableArn").asString(null);
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode list = answer.putArray("ExportSummaries");
        exports.values().stream()
                .map(ExportsApi::described)
                .map(e -> e.path("ExportDescription"))
                .filter(d ->
                        tableArn == null || tableArn.equals(d.path("TableArn").asString()))
                .sorted((a, b) -> a.path("ExportArn")
                        .asString()
                        .compareTo(b.path("ExportArn").asString()))
                .forEach(d -> {
                    ObjectNode s = list.addObject();
                    s.put("ExportArn", d.path("ExportArn").asString());
                    s.put("ExportStatus", d.path("ExportStatus").asString());
                    s.put("ExportType", d.path("ExportType").asString());
                });
        return answer;
    }

    static Instant time(JsonNode epochSeconds) {
        double s = epochSeconds.asDouble();
        long whole = (long) Math.floor(s);
        return Instant.ofEpochSecond(whole, Math.round((s - whole) * 1_000) * 1_000_000);
    }

    private static double seconds(Instant t) {
        return t.toEpochMilli() / 1000.0;
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }
}
