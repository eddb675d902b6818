package io.dynarestore.e2e;

import io.dynarestore.testkit.Ports;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Debian's chromium, headless, driven over the DevTools protocol (a WebSocket): enough to load a
 * page, run JavaScript in it, wait for a condition and take a screenshot. No WebDriver needed.
 */
final class HeadlessChromium implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

    /** The chromium binary on this machine, if any. */
    static Optional<Path> binary() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    HeadlessChromium(URI page, Path profile) throws Exception {
        int port = Ports.free();
        Files.createDirectories(profile);
        process = new ProcessBuilder(
                        binary().orElseThrow().toString(),
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-background-networking",
                        "--disable-dev-shm-usage",
                        "--no-first-run",
                        "--window-size=1400,1100",
                        "--remote-debugging-port=" + port,
                        "--remote-allow-origins=*",
                        "--user-data-dir=" + profile,
                        page.toString())
                .redirectErrorStream(true)
                .redirectOutput(profile.resolve("chromium.log").toFile())
                .start();
        var http = HttpClient.newHttpClient();
        String ws = null;
        Instant deadline = Instant.now().plusSeconds(30);
        while (ws == null && Instant.now().isBefore(deadline)) {
            try {
                var list = JSON.readTree(http.send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body());
                for (JsonNode target : list) {
                    if ("page".equals(target.get("type").asString())) {
                        ws = target.get("webSocketDebuggerUrl").asString();
                    }
                }
            } catch (java.io.IOException e) {
                Thread.sleep(200); // not listening yet
            }
        }
        if (ws == null) {
            throw new IllegalStateException(
                    "chromium did not open its DevTools port; see " + profile.resolve("chromium.log"));
        }
        socket = http.newWebSocketBuilder()
                .buildAsync(URI.create(ws), new Listener())
                .get(10, TimeUnit.SECONDS);
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                JsonNode message = JSON.readTree(text.toString());
                text.setLength(0);
                if (message.has("id")) {
                    var future = pending.remove(message.get("id").asInt());
                    if (future != null) {
                        future.complete(message);
                    }
                }
            }
            webSocket.request(1);
            return null;
        }
    }

    JsonNode send(String method, Map<String, Object> params) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode message = JSON.createObjectNode();
        message.put("id", id);
        message.put("method", method);
        message.set("params", JSON.valueToTree(params));
        var future = new CompletableFuture<JsonNode>();
        pending.put(id, future);
        socket.sendText(JSON.writeValueAsString(message), true).get(10, TimeUnit.SECONDS);
        JsonNode answer = future.get(60, TimeUnit.SECONDS);
        if (answer.has("error")) {
            throw new IllegalStateException(method + ": " + answer.get("error"));
        }
        return answer.get("result");
    }

    /** Runs {@code js} in the page (awaiting a promise) and returns its value. */
    JsonNode eval(String js) throws Exception {
        JsonNode result =
                send("Runtime.evaluate", Map.of("expression", js, "awaitPromise", true, "returnByValue", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("page script failed: " + result.get("exceptionDetails"));
        }
        return result.get("result").get("value");
    }

    /** Waits until {@code condition} (JavaScript) is true in the page. */
    void waitFor(String condition, Duration timeout) throws Exception {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            JsonNode v = eval("!!(" + condition + ")");
            if (v != null && v.asBoolean()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                "the page never showed " + condition + "; it shows: " + eval("document.body.innerText.slice(0, 2000)"));
    }

    void screenshot(Path file) throws Exception {
        JsonNode shot = send("Page.captureScreenshot", Map.of("format", "png"));
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(shot.get("data").asString()));
    }

    @Override
    public void close() {
        try {
            socket.abort();
        } catch (RuntimeException ignored) {
            // closing
        }
        process.destroyForcibly();
    }
}
