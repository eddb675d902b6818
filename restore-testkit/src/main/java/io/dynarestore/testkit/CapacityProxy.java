package io.dynarestore.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A DynamoDB-protocol proxy in front of dynalite that enforces write capacity the way DynamoDB
 * does, since dynalite never throttles. Each table has a token bucket filled at its provisioned
 * WCU per second (read from the table, or set with {@link #limit}) holding up to
 * {@link #burstSeconds} seconds of unused capacity (DynamoDB keeps 300). A write costs
 * ceil(size / 1 KB) units, plus the same for every LSI whose sort key the item has; a delete one
 * unit. BatchWriteItem takes the writes the bucket can pay for, in order, and returns the rest as
 * {@code UnprocessedItems}; when it can pay for none the call fails with
 * {@code ProvisionedThroughputExceededException}, as do single-item writes. An item bigger than
 * the bucket passes when the bucket is full, as DynamoDB lets large items through on burst
 * capacity. Consumption is recorded per table and second, for tests and benchmarks to compare
 * with their budget. On-demand tables are not limited unless {@link #limit} says so.
 * The item size is computed here independently of the services' own code, so it checks it.
 */
public final class CapacityProxy implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String THROTTLED = "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
            + "ProvisionedThroughputExceededException\",\"message\":\"The level of configured provisioned "
            + "throughput for the table was exceeded. Consider increasing your provisioning level with the "
            + "UpdateTable API.\"}";

    private final HttpServer server;
    private final Forwarding forwarding;
    private final DynamoDbClient dynamo;
    private final Map<String, Long> limits = new ConcurrentHashMap<>();
    private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();
    private final Map<String, SortedMap<Long, Long>> consumed = new ConcurrentHashMap<>();
    private final ReadMeter reads = new ReadMeter();
    private final AtomicLong throttledCalls = new AtomicLong();
    private final AtomicLong unprocessedItems = new AtomicLong();
    private final AtomicLong acceptedItems = new AtomicLong();
    private volatile int burstSeconds = 300;
    private volatile boolean discardWrites;
    private volatile boolean down;

    private CapacityProxy(URI target) throws IOException {
        this.forwarding = new Forwarding(target);
        this.dynamo = Dynalite.client(target);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.start();
    }

    public static CapacityProxy inFrontOf(URI dynamo) {
        try {
            return new CapacityProxy(dynamo);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Seconds of unused capacity a table's bucket keeps (at least 1). */
    public CapacityProxy burstSeconds(int seconds) {
        this.burstSeconds = Math.max(1, seconds);
        buckets.clear();
        return this;
    }

    /** Limits {@code table} to this many WCU per second, whatever it is provisioned with. */
    public CapacityProxy limit(String table, long writeUnitsPerSecond) {
        limits.put(table, writeUnitsPerSecond);
        buckets.remove(table);
        return this;
    }

    /** Meters and throttles writes but does not pass them on (for volumes dynalite cannot hold). */
    public CapacityProxy discardingWrites() {
        this.discardWrites = true;
        return this;
    }

    /**
     * Makes DynamoDB unreachable until {@link #up()}: every request's connection is closed
     * without an answer, as when the service or the network is down.
     */
    public CapacityProxy down() {
        down = true;
        return this;
    }

    public CapacityProxy up() {
        down = false;
        return this;
    }

    public long throttledCalls() {
        return throttledCalls.get();
    }

    public long unprocessedItems() {
        return unprocessedItems.get();
    }

    public long acceptedItems() {
        return acceptedItems.get();
    }

    /** Units consumed per epoch second, for seconds in which anything was written. */
    public SortedMap<Long, Long> consumedPerSecond(String table) {
        SortedMap<Long, Long> m = consumed.get(table);
        if (m == null) {
            return new TreeMap<>();
        }
        synchronized (m) {
            return new TreeMap<>(m);
        }
    }

    /** All units consumed by {@code table}. */
    public long consumed(String table) {
        return consumedPerSecond(table).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (down) {
                return; // closed without an answer
            }
            String action = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            String op = action == null ? "" : action.substring(action.indexOf('.') + 1);
            switch (op) {
                case "BatchWriteItem" -> batchWrite(exchange, body);
                case "PutItem", "DeleteItem", "UpdateItem" -> singleWrite(exchange, body, op);
                case "Scan", "BatchGetItem" -> read(exchange, body, op);
                default -> {
                    var response = forward(exchange, body);
                    Forwarding.copyBack(exchange, response, response.body());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        return forwarding.forward(exchange, body);
    }

    private void batchWrite(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        ObjectNode request = (ObjectNode) JSON.readTree(body);
        ObjectNode items = (ObjectNode) request.get("RequestItems");
        ObjectNode unprocessed = JSON.createObjectNode();
        long now = System.currentTimeMillis();
        int accepted = 0;
        for (var entry : new ArrayList<>(items.properties())) {
            String table = entry.getKey();
            TokenBucket bucket = bucket(table);
            ArrayNode kept = JSON.createArrayNode();
            ArrayNode left = JSON.createArrayNode();
            long spent = 0;
            for (JsonNode write : entry.getValue()) {
                long cost = cost(table, write);
                if (bucket == null || bucket.take(cost, now)) {
                    kept.add(write);
                    spent += cost;
                } else {
                    left.add(write);
                }
            }
            record(table, now, spent);
            accepted += kept.size();
            if (kept.isEmpty()) {
                items.remove(table);
            } else {
                items.set(table, kept);
            }
            if (!left.isEmpty()) {
                unprocessed.set(table, left);
                unprocessedItems.addAndGet(left.size());
            }
        }
        acceptedItems.addAndGet(accepted);
        if (accepted == 0) {
            throttledCalls.incrementAndGet();
            Forwarding.reply(exchange, 400, THROTTLED);
            return;
        }
        if (discardWrites) {
            Forwarding.reply(exchange, 200, "{\"UnprocessedItems\":" + JSON.writeValueAsString(unprocessed) + "}");
            return;
        }
        HttpResponse<byte[]> response = forward(exchange, JSON.writeValueAsBytes(request));
        byte[] answer = response.body();
        if (response.statusCode() == 200 && !unprocessed.isEmpty()) {
            ObjectNode json = (ObjectNode) JSON.readTree(answer);
            JsonNode theirs = json.get("UnprocessedItems");
            if (theirs instanceof ObjectNode t) {
                t.properties().forEach(e -> {
                    ArrayNode merged = unprocessed.has(e.getKey())
                            ? (ArrayNode) unprocessed.get(e.getKey())
                            : unprocessed.putArray(e.getKey());
                    e.getValue().forEach(merged::add);
                });
            }
            json.set("UnprocessedItems", unprocessed);
            answer = JSON.writeValueAsBytes(json);
        }
        Forwarding.copyBack(exchange, response, answer);
    }

    /** Passes a Scan or a BatchGetItem on and meters its read units ({@link ReadMeter}). */
    private void read(HttpExchange exchange, byte[] body, String op) throws IOException, InterruptedException {
        JsonNode request = JSON.readTree(body);
        var response = forward(exchange, body);
        if (response.statusCode() == 200) {
            JsonNode answer = JSON.readTree(response.body());
            if ("Scan".equals(op)) {
                reads.scanned(request, answer);
            } else {
                reads.batchRead(request, answer);
            }
        }
        Forwarding.copyBack(exchange, response, response.body());
    }

    /** Read units consumed by Scans and BatchGetItems of {@code table} per epoch second, for seconds in which it was read. */
    public SortedMap<Long, Long> readPerSecond(String table) {
        return reads.perSecond(table);
    }

    private void singleWrite(HttpExchange exchange, byte[] body, String op) throws IOException, InterruptedException {
        JsonNode request = JSON.readTree(body);
        String table = request.get("TableName").asString();
        long cost = "PutItem".equals(op) ? itemCost(table, request.get("Item")) : 1;
        TokenBucket bucket = bucket(table);
        long now = System.currentTimeMillis();
        if (bucket != null && !bucket.take(cost, now)) {
            throttledCalls.incrementAndGet();
            Forwarding.reply(exchange, 400, THROTTLED);
            return;
        }
        record(table, now, cost);
        acceptedItems.incrementAndGet();
        if (discardWrites) {
            Forwarding.reply(exchange, 200, "{}");
            return;
        }
        var response = forward(exchange, body);
        Forwarding.copyBack(exchange, response, response.body());
    }

    private void record(String table, long nowMillis, long units) {
        if (units == 0) {
            return;
        }
        SortedMap<Long, Long> m = consumed.computeIfAbsent(table, t -> new TreeMap<>());
        synchronized (m) {
            m.merge(nowMillis / 1000, units, Long::sum);
        }
    }

    private long cost(String table, JsonNode write) {
        if (write.has("PutRequest")) {
            return itemCost(table, write.get("PutRequest").get("Item"));
        }
        return 1; // a delete: one unit (DynamoDB bills the deleted item's size, which the request does not hold)
    }

    private long itemCost(String table, JsonNode item) {
        long units = (ItemBytes.size(item) + 1023) / 1024;
        units = Math.max(1, units);
        long indexes = 0;
        for (String sortKey : lsiSortKeys(table)) {
            if (item.has(sortKey)) {
                indexes++;
            }
        }
        return units * (1 + indexes);
    }

    // ---- tables ----

    private record TableInfo(Long writeUnits, List<String> lsiSortKeys, long readAt) {}

    private final Map<String, TableInfo> tables = new ConcurrentHashMap<>();

    private TableInfo info(String table) {
        TableInfo info = tables.get(table);
        if (info == null || System.currentTimeMillis() - info.readAt() > 2_000) {
            TableDescription d = dynamo.describeTable(b -> b.tableName(table)).table();
            boolean onDemand = d.billingModeSummary() != null
                    && d.billingModeSummary().billingMode() == BillingMode.PAY_PER_REQUEST;
            var sortKeys = new ArrayList<String>();
            if (d.hasLocalSecondaryIndexes()) {
                d.localSecondaryIndexes()
                        .forEach(l -> l.keySchema().stream()
                                .filter(k -> k.keyType() == KeyType.RANGE)
                                .forEach(k -> sortKeys.add(k.attributeName())));
            }
            info = new TableInfo(
                    onDemand ? null : d.provisionedThroughput().writeCapacityUnits(),
                    sortKeys,
                    System.currentTimeMillis());
            tables.put(table, info);
        }
        return info;
    }

    private List<String> lsiSortKeys(String table) {
        return info(table).lsiSortKeys();
    }

    private TokenBucket bucket(String table) {
        Long rate = limits.containsKey(table) ? limits.get(table) : info(table).writeUnits();
        if (rate == null) {
            return null;
        }
        TokenBucket b = buckets.computeIfAbsent(table, t -> new TokenBucket(rate, burstSeconds));
        if (b.rate != rate) {
            b = new TokenBucket(rate, burstSeconds);
            buckets.put(table, b);
        }
        return b;
    }

    @Override
    public void close() {
        server.stop(0);
        dynamo.close();
    }
}
