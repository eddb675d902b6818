package io.dynarestore.testkit;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The HTTP plumbing of the DynamoDB proxies of this kit: pass a request on, copy the answer back. */
final class Forwarding {

    static {
        // without it the JDK's HTTP server answers small responses 40 ms late (Nagle and delayed ACKs)
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private static final Set<String> HOP_HEADERS =
            Set.of("host", "content-length", "connection", "expect", "transfer-encoding", "upgrade");

    private final HttpClient client = HttpClient.newHttpClient();
    private final URI target;

    Forwarding(URI target) {
        this.target = target;
    }

    /** Sends {@code body} with the exchange's method, path and headers to the target. */
    HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        var forward = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI()))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, List<String>> h : exchange.getRequestHeaders().entrySet()) {
            if (!HOP_HEADERS.contains(h.getKey().toLowerCase())) {
                h.getValue().forEach(v -> forward.header(h.getKey(), v));
            }
        }
        return client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Answers the exchange with {@code response}'s status and headers and {@code answer} as body. */
    static void copyBack(HttpExchange exchange, HttpResponse<byte[]> response, byte[] answer) throws IOException {
        response.headers().map().forEach((k, values) -> {
            // a changed body would fail the SDK's CRC32 check
            if (!HOP_HEADERS.contains(k.toLowerCase()) && !k.equalsIgnoreCase("x-amz-crc32") && !k.startsWith(":")) {
                values.forEach(v -> exchange.getResponseHeaders().add(k, v));
            }
        });
        exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }

    /** Answers with a DynamoDB-protocol JSON body. */
    static void reply(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
