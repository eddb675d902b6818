package io.dynarestore.e2e;

import io.dynarestore.testkit.LocalApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP client for the API, as any user would call it. */
final class Http {

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    record Response(int status, String body, java.net.http.HttpHeaders headers) {
        JsonNode json() {
            return JSON.readTree(body);
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    static Response post(URI uri, String json) throws Exception {
        var request = HttpRequest.newBuilder(uri)
                .header(LocalApi.HEADER, LocalApi.KEY)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        var r = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body(), r.headers());
    }

    static Response put(URI uri, String json) throws Exception {
        var request = HttpRequest.newBuilder(uri)
                .header(LocalApi.HEADER, LocalApi.KEY)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .build();
        var r = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body(), r.headers());
    }

    static Response get(URI uri) throws Exception {
        var r = CLIENT.send(
                HttpRequest.newBuilder(uri)
                        .header(LocalApi.HEADER, LocalApi.KEY)
                        .timeout(Duration.ofSeconds(30))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body(), r.headers());
    }
}
