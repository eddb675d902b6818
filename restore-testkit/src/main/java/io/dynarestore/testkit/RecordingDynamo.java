package io.dynarestore.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A DynamoDB-protocol proxy in front of dynalite that records every request (operation, JSON
 * body, access key), so that a test can check the exact requests a service sent, including those
 * dynalite does not implement or silently ignores. It can also stand for an account boundary:
 * with {@link #acceptOnly} it refuses, the way DynamoDB does, requests signed with any other access
 * key (for example the services' own, when they should be using an assumed role's).
 */
public final class RecordingDynamo implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/,\\s]+)/");

    /** A request as received. */
    public record Sent(String operation, JsonNode body, String accessKeyId) {}

    private final HttpServer server;
    private final Forwarding forwarding;
    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private volatile boolean gated;
    private volatile Supplier<Set<String>> keys = Set::of;

    private RecordingDynamo(URI target) throws IOException {
        this.forwarding = new Forwarding(target);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
    }

    public static RecordingDynamo inFrontOf(URI dynamo) {
        try {
            return new RecordingDynamo(dynamo);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** From now on, refuse requests signed with an access key that {@code accessKeyIds} does not hold. */
    public RecordingDynamo acceptOnly(Supplier<Set<String>> accessKeyIds) {
        this.keys = accessKeyIds;
        gated = true;
        return this;
    }

    /** Every request so far, in arrival order. */
    public List<Sent> sent() {
        return List.copyOf(sent);
    }

    /** The requests of one operation (such as {@code CreateTable}) so far. */
    public List<Sent> sent(String operation) {
        return sent.stream().filter(s -> s.operation().equals(operation)).toList();
    }

    public void clear() {
        sent.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            String operation = target == null ? "" : target.substring(target.indexOf('.') + 1);
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            Matcher m = CREDENTIAL.matcher(auth == null ? "" : auth);
            String accessKey = m.find() ? m.group(1) : null;
            sent.add(new Sent(operation, body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body), accessKey));
            if (gated && (accessKey == null || !keys.get().contains(accessKey))) {
                Forwarding.reply(
                        exchange,
                        400,
                        "{\"__type\":\"com.amazon.coral.service#UnrecognizedClientException\","
                                + "\"message\":\"The security token included in the request is invalid.\"}");
                return;
            }
            HttpResponse<byte[]> response = forwarding.forward(exchange, body);
            Forwarding.copyBack(exchange, response, response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
