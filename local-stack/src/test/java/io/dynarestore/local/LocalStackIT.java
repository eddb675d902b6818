package io.dynarestore.local;

import io.dynarestore.testkit.LocalApi;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.RepoRoot;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's first command: the local stack starts, restores the demo, and stops cleanly. */
class LocalStackIT {

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
            var post = http.send(HttpRequest.newBuilder(URI.create(api + "/restores"))
                .header(LocalApi.HEADER, LocalApi.KEY)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"restoreId\":\"local-1\",\"source\":{\"table\":"
                            + "\"orders\",\"backupId\":\"" + latest + "\"},\"destination\":{\"type\":\"NEW_TABLE\","
                            + "\"tableName\":\"orders-local\"}}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).as(post.body()).isEqualTo(202);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() -> http.send(
                    HttpRequest.newBuilder(URI.create(api + "/restores/local-1"))
                .header(LocalApi.HEADER, LocalApi.KEY).build(),
                    HttpResponse.BodyHandlers.ofString()).body().contains("\"state\":\"COMPLETED\""));
            try (var dynamo = Dynalite.client(URI.create(stack.endpoints().get("dynamodb")))) {
                int live = dynamo.scan(b -> b.tableName("orders").select("COUNT")).count();

                // and its history restores to the latest second: the table as it is now
                var pitr = http.send(HttpRequest.newBuilder(URI.create(api + "/restores"))
                .header(LocalApi.HEADER, LocalApi.KEY)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"restoreId\":\"local-2\",\"source\":{\"table\":"
                                + "\"orders\",\"pointInTime\":\"latest\"},\"destination\":{\"type\":\"NEW_TABLE\","
                                + "\"tableName\":\"orders-latest\"}}")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(pitr.statusCode()).as(pitr.body()).isEqualTo(202);
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() -> http.send(
                        HttpRequest.newBuilder(URI.create(api + "/restores/local-2"))
                .header(LocalApi.HEADER, LocalApi.KEY).build(),
                        HttpResponse.BodyHandlers.ofString()).body().contains("\"state\":\"COMPLETED\""));
                assertThat(dynamo.scan(b -> b.tableName("orders-latest").select("COUNT")).count()).isEqualTo(live);
                var windows = http.send(HttpRequest.newBuilder(URI.create(api + "/tables/orders/pitr-windows"))
                .header(LocalApi.HEADER, LocalApi.KEY).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                assertThat(windows).contains("\"gaps\":[{");
            }
        } finally {
            stack.close();
        }
        // and when it stops, nothing listens any more
        assertThat(settings.ports().values()).noneMatch(Ports::accepting);
    }
}
