package io.dynarestore.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.protector.VaultImage;
import io.dynarestore.testkit.LocalApi;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Pattern;

/** The restore-api calls the protection checks make, with the local API key, each waiting for its effect. */
final class ApiCalls {

    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"([A-Z_]+)\"");
    private static final Pattern RESTORE_ID = Pattern.compile("\"restoreId\"\\s*:\\s*\"([^\"]+)\"");
    private final ChaosStack stack;
    private final HttpClient http = HttpClient.newHttpClient();

    ApiCalls(ChaosStack stack) {
        this.stack = stack;
    }

    /** Protects {@code table}: SCAN backups {@code every}, kept a day, and a Streams change log flushed {@code flushEvery}. */
    void protect(String table, String every, String flushEvery) throws Exception {
        var response = send(HttpRequest.newBuilder(stack.api("/tables/" + table + "/protection"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("""
                        {"backups": {"method": "SCAN", "every": "%s", "retention": "P1D"},
                         "changeLog": {"method": "STREAMS", "flushEvery": "%s"}}""".formatted(every, flushEvery))));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    /** Waits until {@code table} has a backup listed. */
    void awaitBackup(String table, Duration atMost) throws Exception {
        Instant deadline = Instant.now().plus(atMost);
        while (true) {
            var response = send(HttpRequest.newBuilder(stack.api("/tables/" + table + "/backups"))
                    .GET());
            if (response.statusCode() == 200 && response.body().contains("\"backupId\"")) {
                return;
            }
            assertThat(Instant.now())
                    .as(table + " has its first backup; " + response.body())
                    .isBefore(deadline);
            Thread.sleep(500);
        }
    }

    /** Waits until the vault restores {@code table} to second {@code last}. */
    void awaitRestorable(VaultImage vault, String table, long last, Duration atMost) throws Exception {
        Instant deadline = Instant.now().plus(atMost);
        while (true) {
            var latest = vault.coverage(ChaosStack.ACCOUNT, ChaosStack.REGION, table)
                    .availability()
                    .latestRestorable();
            if (latest != null && latest.getEpochSecond() >= last) {
                return;
            }
            assertThat(Instant.now())
                    .as("the change log of " + table + " catches up with its last write, " + Instant.ofEpochSecond(last)
                            + " (restorable up to " + latest + ")")
                    .isBefore(deadline);
            Thread.sleep(500);
        }
    }

    /** Restores {@code table} at {@code t} into the new table {@code target}; the milliseconds it took to complete. */
    long restore(String table, Instant t, String target) throws Exception {
        long begin = System.currentTimeMillis();
        var response = send(HttpRequest.newBuilder(stack.api("/restores"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"source": {"table": "%s", "pointInTime": "%s"},
                         "destination": {"type": "NEW_TABLE", "tableName": "%s"}}""".formatted(table, t, target))));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        var id = RESTORE_ID.matcher(response.body());
        assertThat(id.find()).as(response.body()).isTrue();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        while (true) {
            var status = send(HttpRequest.newBuilder(stack.api("/restores/" + id.group(1)))
                    .GET());
            var state = STATE.matcher(status.body());
            if (state.find() && state.group(1).matches("COMPLETED|FAILED|REJECTED")) {
                assertThat(state.group(1)).as(status.body()).isEqualTo("COMPLETED");
                return System.currentTimeMillis() - begin;
            }
            assertThat(Instant.now())
                    .as("restore " + id.group(1) + " ends; " + status.body())
                    .isBefore(deadline);
            Thread.sleep(500);
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(
                request.header(LocalApi.HEADER, LocalApi.KEY)
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
