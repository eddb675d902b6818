package io.dynarestore.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.dynarestore.testkit.StreamLog.StreamsError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * DynamoDB and DynamoDB Streams on one endpoint, in front of dynalite, which has no Streams.
 * DynamoDB calls pass through; for a table whose stream is enabled (CreateTable or UpdateTable with
 * a {@code StreamSpecification}, or {@link #enableStream}) every write that changes an item is
 * recorded with its old and new image, in the order the writes are applied (writes to one table
 * are serialized here, so the images are exact). The DynamoDB Streams calls {@code ListStreams},
 * {@code DescribeStream}, {@code GetShardIterator} and {@code GetRecords} answer as the service does:
 * NEW_AND_OLD_IMAGES records with {@code ApproximateCreationDateTime} rounded down to the second,
 * shards that roll over into a child, records trimmed after the retention, and the service's
 * exceptions ({@code TrimmedDataAccessException}, {@code ExpiredIteratorException},
 * {@code ResourceNotFoundException}). Point the AWS SDK's {@code DynamoDbStreamsClient} at
 * {@link #endpoint()}: nothing in the client knows it is not AWS. Point-in-time recovery and
 * exports ({@code UpdateContinuousBackups}, {@code ExportTableToPointInTime}, ...) are answered by
 * {@link ExportsApi}, into the S3 given by {@link #exportsTo}; the Streams calls by {@link StreamsApi}.
 */
public final class StreamsEndpoint implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String DYNAMO = "DynamoDB_20120810.";
    private static final String STREAMS = "DynamoDBStreams_20120810.";
    private static final String ACCOUNT = "000000000000";

    private final HttpServer server;
    private final Forwarding forwarding;
    private final HttpClient client = HttpClient.newHttpClient();
    private final URI target;
    private final Clock clock;
    private final Map<String, StreamLog> latest = new ConcurrentHashMap<>();
    private final StreamsApi streamsApi = new StreamsApi();
    private final ExportsApi exports;
    private final WriteRecorder recorder;
    private volatile int recordsPerShard = 10_000;
    private volatile int partitions = 1;
    private volatile String region = "us-east-1";

    private StreamsEndpoint(URI target, int port, Clock clock) throws IOException {
        this.target = target;
        this.clock = clock;
        this.forwarding = new Forwarding(target);
        this.recorder = new WriteRecorder(
                forwarding, this::recording, this::getItem, clock, () -> recordsPerShard, () -> region);
        this.exports = new ExportsApi(
                new ExportsApi.Tables() {
                    @Override
                    public JsonNode call(String op, ObjectNode request) {
                        return StreamsEndpoint.this.call(op, request);
                    }

                    @Override
                    public <T> T locked(String table, Supplier<T> action) {
                        return recorder.locked(table, action);
                    }
                },
                clock,
                ACCOUNT);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.start();
    }

    public static StreamsEndpoint inFrontOf(URI dynamo) {
        return inFrontOf(dynamo, 0);
    }

    /** On a chosen port (0: any free one), as the local stack puts it on DynamoDB's usual 8000. */
    public static StreamsEndpoint inFrontOf(URI dynamo, int port) {
        try {
            return new StreamsEndpoint(dynamo, port, Clock.systemUTC());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Closes a shard and opens its child after this many records (DynamoDB rolls shards over every few hours). */
    /**
     * Streams enabled from now on write each key into one of {@code count} partitions (by a hash of
     * its key), each with its own lineage of shards open at the same time, as a table of several
     * partitions does (default 1).
     */
    public StreamsEndpoint partitions(int count) {
        this.partitions = Math.max(1, count);
        return this;
    }

    public StreamsEndpoint recordsPerShard(int records) {
        this.recordsPerShard = Math.max(1, records);
        return this;
    }

    /** How long records stay readable (DynamoDB Streams: 24 hours). */
    public StreamsEndpoint retention(Duration retention) {
        streamsApi.retention(retention);
        return this;
    }

    /** Enables a NEW_AND_OLD_IMAGES stream on an existing table, as UpdateTable would. */
    public StreamsEndpoint enableStream(String table) {
        JsonNode described = describeTable(table);
        open(table, described.path("Table").path("KeySchema"));
        return this;
    }

    /** Where exports write their files (S3Proxy locally): without it, ExportTableToPointInTime fails. */
    public StreamsEndpoint exportsTo(S3Client s3) {
        exports.writeTo(s3);
        return this;
    }

    /** The shortest incremental export period accepted (DynamoDB: 15 minutes), shortened by tests that cannot wait. */
    public StreamsEndpoint shortestIncrementalExport(Duration shortest) {
        exports.shortestIncremental(shortest);
        return this;
    }

    /** Records handed out by GetRecords so far (the benchmark's baseline counts them). */
    public long recordsServed() {
        return streamsApi.recordsServed();
    }

    private void streams(HttpExchange exchange, String op, ObjectNode request) throws IOException {
        try {
            Forwarding.reply(exchange, 200, streamsApi.answer(op, request).toString());
        } catch (StreamsError e) {
            Forwarding.reply(exchange, 400, error(e.type, e.getMessage()));
        }
    }

    private void exports(HttpExchange exchange, String op, byte[] body) throws IOException {
        try {
            Forwarding.reply(
                    exchange,
                    200,
                    exports.answer(op, (ObjectNode) JSON.readTree(body), regionOf(exchange))
                            .toString());
        } catch (StreamsError e) {
            Forwarding.reply(exchange, 400, error(e.type, e.getMessage()));
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String action = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            action = action == null ? "" : action;
            if (action.startsWith(STREAMS)) {
                streams(exchange, action.substring(STREAMS.length()), (ObjectNode) JSON.readTree(body));
                return;
            }
            String op = action.startsWith(DYNAMO) ? action.substring(DYNAMO.length()) : "";
            switch (op) {
                case "CreateTable" -> createTable(exchange, body);
                case "UpdateTable" -> updateTable(exchange, body);
                case "DescribeTable" -> describeTable(exchange, body);
                case "DeleteTable" -> deleteTable(exchange, body);
                case "PutItem", "DeleteItem", "UpdateItem", "BatchWriteItem" -> recorder.write(exchange, body, op);
                default -> {
                    if (exports.handles(op)) {
                        exports(exchange, op, body);
                    } else {
                        pass(exchange, body);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void pass(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        var response = forwarding.forward(exchange, body);
        Forwarding.copyBack(exchange, response, response.body());
    }

    // ---- DynamoDB calls that concern streams ----

    private void createTable(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        ObjectNode request = (ObjectNode) JSON.readTree(body);
        var response = forwarding.forward(exchange, body);
        if (response.statusCode() == 200
                && request.path("StreamSpecification").path("StreamEnabled").asBoolean()) {
            String table = request.path("TableName").asString();
            region = regionOf(exchange);
            StreamLog log = open(table, request.path("KeySchema"));
            ObjectNode answer = (ObjectNode) JSON.readTree(response.body());
            decorate((ObjectNode) answer.path("TableDescription"), log);
            Forwarding.copyBack(exchange, response, JSON.writeValueAsBytes(answer));
            return;
        }
        Forwarding.copyBack(exchange, response, response.body());
    }

    private void updateTable(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        ObjectNode request = (ObjectNode) JSON.readTree(body);
        JsonNode spec = request.remove("StreamSpecification");
        if (spec == null) {
            pass(exchange, body);
            return;
        }
        String table = request.path("TableName").asString();
        JsonNode described = describeTable(table);
        if (!described.has("Table")) {
            Forwarding.reply(exchange, 400, described.toString());
            return;
        }
        StreamLog current = latest.get(table);
        boolean enable = spec.path("StreamEnabled").asBoolean();
        if (enable == (current != null && current.enabled())) {
            Forwarding.reply(
                    exchange,
                    400,
                    error(
                            "ValidationException",
                            enable
                                    ? "Table already has an enabled stream: " + current.arn()
                                    : "Stream is already disabled"));
            return;
        }
        if (enable) {
            open(table, described.path("Table").path("KeySchema"));
        } else {
            current.disable();
        }
        if (request.size() > 1) {
            var response = forwarding.forward(exchange, JSON.writeValueAsBytes(request));
            Forwarding.copyBack(exchange, response, response.body());
            return;
        }
        ObjectNode description = (ObjectNode) describeTable(table).path("Table");
        decorate(description, latest.get(table));
        ObjectNode answer = JSON.createObjectNode();
        answer.set("TableDescription", description);
        Forwarding.reply(exchange, 200, answer.toString());
    }

    private void describeTable(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        var response = forwarding.forward(exchange, body);
        String table = JSON.readTree(body).path("TableName").asString();
        StreamLog log = latest.get(table);
        if (response.statusCode() != 200 || log == null) {
            Forwarding.copyBack(exchange, response, response.body());
            return;
        }
        ObjectNode answer = (ObjectNode) JSON.readTree(response.body());
        decorate((ObjectNode) answer.path("Table"), log);
        Forwarding.copyBack(exchange, response, JSON.writeValueAsBytes(answer));
    }

    private void deleteTable(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        var response = forwarding.forward(exchange, body);
        String table = JSON.readTree(body).path("TableName").asString();
        StreamLog log = latest.get(table);
        if (response.statusCode() == 200 && log != null) {
            log.disable();
        }
        if (response.statusCode() == 200) {
            exports.tableDeleted(table);
        }
        Forwarding.copyBack(exchange, response, response.body());
    }

    private static void decorate(ObjectNode table, StreamLog log) {
        if (log.enabled()) {
            ObjectNode spec = table.putObject("StreamSpecification");
            spec.put("StreamEnabled", true);
            spec.put("StreamViewType", "NEW_AND_OLD_IMAGES");
        }
        table.put("LatestStreamArn", log.arn());
        table.put("LatestStreamLabel", log.label());
    }

    private StreamLog open(String table, JsonNode keySchema) {
        StreamLog log = new StreamLog(table, region, ACCOUNT, keySchema.deepCopy(), clock, partitions);
        StreamLog previous = latest.put(table, log);
        if (previous != null) {
            previous.disable();
        }
        streamsApi.register(log);
        return log;
    }

    /**
     * Puts a record of {@code image} (DynamoDB JSON) being created into {@code table}'s stream, as a
     * PutItem of a new key through this endpoint would, but without writing it to the database: for
     * benchmarks of stream readers that need a long stream fast (dynalite takes about 800 writes a
     * second). The table must exist with its stream enabled; its contents no longer match its stream.
     */
    public void recordCreated(String table, JsonNode image) {
        if (!recorder.recordCreated(table, image)) {
            throw new IllegalStateException("the table " + table + " has no enabled stream here");
        }
    }

    /** Where the writes of {@code table} are recorded: its enabled stream, its recovery history; null for neither. */
    private WriteRecorder.Recorded recording(String table) {
        StreamLog log = latest.get(table);
        StreamLog stream = log != null && log.enabled() ? log : null;
        TableHistory history = exports.history(table);
        if (stream == null && history == null) {
            return null;
        }
        return new WriteRecorder.Recorded(
                table, stream != null ? stream.keySchema() : history.keySchema(), stream, history);
    }

    private JsonNode getItem(String table, ObjectNode key) {
        ObjectNode request = JSON.createObjectNode();
        request.put("TableName", table);
        request.set("Key", key);
        request.put("ConsistentRead", true);
        JsonNode item = call("GetItem", request).path("Item");
        return item.isMissingNode() ? null : item;
    }

    private JsonNode describeTable(String table) {
        ObjectNode request = JSON.createObjectNode();
        request.put("TableName", table);
        return call("DescribeTable", request);
    }

    /** A call of our own to dynalite, which wants a signature-shaped header but checks none. */
    private JsonNode call(String op, ObjectNode request) {
        var http = HttpRequest.newBuilder(target)
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", DYNAMO + op)
                .header("X-Amz-Date", "20260101T000000Z")
                .header(
                        "Authorization",
                        "AWS4-HMAC-SHA256 Credential=local/20260101/" + region
                                + "/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
                .POST(HttpRequest.BodyPublishers.ofString(request.toString()))
                .build();
        try {
            return JSON.readTree(
                    client.send(http, HttpResponse.BodyHandlers.ofByteArray()).body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String regionOf(HttpExchange exchange) {
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (auth != null) {
            String[] scope = auth.replaceFirst(".*Credential=([^,]*).*", "$1").split("/");
            if (scope.length >= 3) {
                return scope[2];
            }
        }
        return "us-east-1";
    }

    private static String error(String type, String message) {
        ObjectNode e = JSON.createObjectNode();
        e.put("__type", "com.amazonaws.dynamodb.v20120810#" + type);
        e.put("message", message);
        return e.toString();
    }

    @Override
    public void close() {
        server.stop(0);
        exports.close();
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }
}
