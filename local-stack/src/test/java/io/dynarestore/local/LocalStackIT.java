package io.dynarestore.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.RepoRoot;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The README's first command: the local stack starts, restores the demo, and stops cleanly. */
class LocalStackIT {

    private static Instant latestRestorable(HttpClient http, String api) throws Exception {
        String body = http.send(
                        HttpRequest.newBuilder(URI.create(api + "/tables/orders/pitr-windows"))
                                .header(LocalApi.HEADER, LocalApi.KEY)
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        var m = Pattern.compile("\"latestRestorable\":\"([^\"]+)\"").matcher(body);
        return m.find() ? Instant.parse(m.group(1)) : null;
    }

    @Test
    void startsEverythingRestoresTheDemoBackupAndStopsEverything() throws Exception {
        // Given the local stack on free ports, in memory
        var args = new ArrayList<String>(List.of("--in-memory"));
        for (String name : LocalSettings.DEFAULT_PORTS.keySet()) {
            args.add("--" + name + "-port=" + Ports.free());
        }
        var settings = LocalSettings.parse(RepoRoot.find(), args.toArray(new String[0]), Map.of());
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        var stack = new LocalStack(settings, classpath);
        try {
            stack.start();
            String api = stack.endpoints().get("api");

            // Then the banner names every endpoint and a curl and a kcat example
            String banner = stack.banner();
            assertThat(banner).contains(api, stack.endpoints().get("kafka"), "kcat -P", "curl -i -X POST");
            assertThat(stack.backups()).hasSize(3);

            // and the demo's latest backup restores into a new table (its 2,000 orders, minus 20 deleted)
            String latest = stack.backups().get(2);
            var http = HttpClient.newHttpClient();
            var post = http.send(
                    HttpRequest.newBuilder(URI.create(api + "/restores"))
                            .header(LocalApi.HEADER, LocalApi.KEY)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"restoreId\":\"local-1\",\"source\":{\"table\":"
                                            + "\"orders\",\"backupId\":\"" + latest
                                            + "\"},\"destination\":{\"type\":\"NEW_TABLE\","
                                            + "\"tableName\":\"orders-local\"}}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).as(post.body()).isEqualTo(202);
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> http.send(
                                    HttpRequest.newBuilder(URI.create(api + "/restores/local-1"))
                                            .header(LocalApi.HEADER, LocalApi.KEY)
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body()
                            .contains("\"state\":\"COMPLETED\""));
            try (var dynamo = Dynalite.client(URI.create(stack.endpoints().get("dynamodb")))) {
                int live =
                        dynamo.scan(b -> b.tableName("orders").select("COUNT")).count();

                // and its history restores to the latest second: the table as it is now
                var pitr = http.send(
                        HttpRequest.newBuilder(URI.create(api + "/restores"))
                                .header(LocalApi.HEADER, LocalApi.KEY)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"restoreId\":\"local-2\",\"source\":{\"table\":"
                                                + "\"orders\",\"pointInTime\":\"latest\"},\"destination\":{\"type\":\"NEW_TABLE\","
                                                + "\"tableName\":\"orders-latest\"}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(pitr.statusCode()).as(pitr.body()).isEqualTo(202);
                await().atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> http.send(
                                        HttpRequest.newBuilder(URI.create(api + "/restores/local-2"))
                                                .header(LocalApi.HEADER, LocalApi.KEY)
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .body()
                                .contains("\"state\":\"COMPLETED\""));
                assertThat(dynamo.scan(b -> b.tableName("orders-latest").select("COUNT"))
                                .count())
                        .isEqualTo(live);
                var windows = http.send(
                                HttpRequest.newBuilder(URI.create(api + "/tables/orders/pitr-windows"))
                                        .header(LocalApi.HEADER, LocalApi.KEY)
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
                assertThat(windows).contains("\"gaps\":[{");

                // and "orders" is protected: a change made on the DynamoDB port restores to the second before it
                stack.protect("orders", LocalStack.DEMO_POLICY.replace("PT1M", "PT2S")); // a minute is long for a test
                var protection = http.send(
                        HttpRequest.newBuilder(URI.create(api + "/tables/orders/protection"))
                                .header(LocalApi.HEADER, LocalApi.KEY)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(protection.body()).contains("\"STREAMS\"");
                await().atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> latestRestorable(http, api) != null
                                && latestRestorable(http, api)
                                        .isAfter(Instant.now().minusSeconds(10)));
                var keys = List.of("customerId", "orderId");
                var before = ItemDigests.ofTable(dynamo, "orders", keys);
                long now = System.currentTimeMillis();
                Thread.sleep(1_050 - now % 1_000);
                Instant t = Instant.ofEpochSecond(now / 1_000);
                var some =
                        dynamo.scan(b -> b.tableName("orders").limit(1)).items().get(0);
                var broken = new HashMap<>(some);
                broken.put("status", AttributeValue.fromS("BROKEN"));
                dynamo.putItem(b -> b.tableName("orders").item(broken));
                await().atMost(Duration.ofMinutes(1))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> latestRestorable(http, api) != null
                                && latestRestorable(http, api).isAfter(t));
                var back = http.send(
                        HttpRequest.newBuilder(URI.create(api + "/restores"))
                                .header(LocalApi.HEADER, LocalApi.KEY)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"restoreId\":\"local-3\",\"source\":{\"table\":"
                                                + "\"orders\",\"pointInTime\":\"" + t + "\"},\"destination\":{\"type\":"
                                                + "\"NEW_TABLE\",\"tableName\":\"orders-before\"}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(back.statusCode()).as(back.body()).isEqualTo(202);
                await().atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> http.send(
                                        HttpRequest.newBuilder(URI.create(api + "/restores/local-3"))
                                                .header(LocalApi.HEADER, LocalApi.KEY)
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .body()
                                .contains("\"state\":\"COMPLETED\""));
                assertThat(ItemDigests.ofTable(dynamo, "orders-before", keys)).isEqualTo(before);
            }
        } finally {
            stack.close();
        }
        // and when it stops, nothing listens any more
        assertThat(settings.ports().values()).noneMatch(Ports::accepting);
    }
}
