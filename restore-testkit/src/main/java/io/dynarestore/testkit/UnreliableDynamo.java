package io.dynarestore.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A DynamoDB-protocol proxy in front of dynalite that behaves the way DynamoDB does under load
 * and dynalite never does: a share of BatchWriteItem calls write only half their items and
 * return the rest as {@code UnprocessedItems}, and a share of calls fail with
 * {@code ProvisionedThroughputExceededException}. Seeded, so a test run is repeatable. It can also
 * discard writes ({@link #discardingWrites()}) for measurements at volumes dynalite cannot hold.
 */
public final class UnreliableDynamo implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final Forwarding forwarding;
    private final Random random;
    private final double unprocessedRate;
    private final double throttleRate;
    private final AtomicLong batchCalls = new AtomicLong();
    private final AtomicLong partialAnswers = new AtomicLong();
    private final AtomicLong throttled = new AtomicLong();
    private final AtomicLong discardedItems = new AtomicLong();
    private volatile boolean discardWrites;

    private UnreliableDynamo(URI target, long seed, double unprocessedRate, double throttleRate) throws IOException {
        this.forwarding = new Forwarding(target);
        this.random = new Random(seed);
        this.unprocessedRate = unprocessedRate;
        this.throttleRate = throttleRate;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
    }

    /**
     * @param unprocessedRate share of BatchWriteItem calls answered with half their items unprocessed
     * @param throttleRate    share of BatchWriteItem calls refused as throttled
     */
    public static UnreliableDynamo inFrontOf(URI dynamo, long seed, double unprocessedRate, double throttleRate)
            throws IOException {
        return new UnreliableDynamo(dynamo, seed, unprocessedRate, throttleRate);
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public long batchCalls() {
        return batchCalls.get();
    }

    public long partialAnswers() {
        return partialAnswers.get();
    }

    public long throttled() {
        return throttled.get();
    }

    /**
     * From now on, answer every BatchWriteItem as fully processed without storing anything: for
     * measuring writers at volumes dynalite would need gigabytes for (it keeps every item in memory).
     */
    public UnreliableDynamo discardingWrites() {
        discardWrites = true;
        return this;
    }

    public long discardedItems() {
        return discardedItems.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String action = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            ObjectNode unprocessed = null;
            if (action != null && action.endsWith(".BatchWriteItem")) {
                batchCalls.incrementAndGet();
                double roll;
                synchronized (random) {
                    roll = random.nextDouble();
                }
                if (roll < throttleRate) {
                    throttled.incrementAndGet();
                    Forwarding.reply(
                            exchange,
                            400,
                            "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
                                    + "ProvisionedThroughputExceededException\",\"message\":\"The level of configured "
                                    + "provisioned throughput for the table was exceeded.\"}");
                    return;
                }
                if (discardWrites) {
                    JsonNode request = JSON.readTree(body);
                    request.get("RequestItems").forEach(writes -> discardedItems.addAndGet(writes.size()));
                    Forwarding.reply(exchange, 200, "{\"UnprocessedItems\":{}}");
                    return;
                }
                if (roll < throttleRate + unprocessedRate) {
                    ObjectNode request = (ObjectNode) JSON.readTree(body);
                    unprocessed = split((ObjectNode) request.get("RequestItems"));
                    if (unprocessed != null) {
                        partialAnswers.incrementAndGet();
                        body = JSON.writeValueAsBytes(request);
                    }
                }
            }
            HttpResponse<byte[]> response = forwarding.forward(exchange, body);
            byte[] answer = response.body();
            if (unprocessed != null && response.statusCode() == 200) {
                ObjectNode json = (ObjectNode) JSON.readTree(answer);
                json.set("UnprocessedItems", unprocessed);
                answer = JSON.writeValueAsBytes(json);
            }
            Forwarding.copyBack(exchange, response, answer);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Keeps the first half of each table's writes in {@code requestItems}; returns the rest. */
    private static ObjectNode split(ObjectNode requestItems) {
        ObjectNode rest = JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        requestItems.properties().iterator();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> table = it.next();
            ArrayNode writes = (ArrayNode) table.getValue();
            if (writes.size() < 2) {
                continue;
            }
            int keep = (writes.size() + 1) / 2;
            ArrayNode kept = JSON.createArrayNode();
            ArrayNode left = JSON.createArrayNode();
            for (int i = 0; i < writes.size(); i++) {
                (i < keep ? kept : left).add(writes.get(i));
            }
            table.setValue(kept);
            rest.set(table.getKey(), left);
        }
        return rest.isEmpty() ? null : rest;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
