package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.csv.ConsoleCsv;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.RandomItems;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.GroupState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/**
 * Granular recovery through restore-api, restore-planner and exporter: the matching records of a
 * backup as a CSV file to download, stopped at the cap when more match; point-in-time
 * requests refused with the reason.
 */
class GranularRecoveryIT {

    static final int ITEMS = 3_000;
    static final int CAP = SharedStack.EXPORT_CAP;
    static RestoreStack stack;
    static RandomItems items = new RandomItems(909, BackupFixtures.SHAPE);

    @BeforeAll
    static void startStack() throws Exception {
        stack = SharedStack.get();
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "file-orders");
        BackupFixtures.writeItems(stack, source, "b-file", items.items(ITEMS), 700, List.of(), null, null);
    }

    @Test
    void exportsTheMatchingRecordsOfABackupToACsvFileForDownload() throws Exception {
        // When the records whose partition key begins with p1 are restored into a file
        String id = stack.restoreAndAwaitCompletion("""
                {"source": {"table": "file-orders", "backupId": "b-file"},
                 "scope": {"type": "RECORDS", "keyFilters": [{"partitionKey": {"condition": "BeginsWith", "values": ["p1"]}}]},
                 "destination": {"type": "FILE", "format": "CSV", "delivery": {"type": "DOWNLOAD"}}}""");

        // Then the restore reports the file, and the download is exactly the matching items
        var filter = RecordFilter.compile(
                new Scope.Records(
                        List.of(new Scope.KeyFilter(new Scope.Condition("BeginsWith", List.of("p1")), null)),
                        List.of()),
                KeySchema.of(List.of("pk", "sk"), List.of("S", "N")));
        var expected = items.items(ITEMS).stream()
                .filter(filter::matches)
                .map(GranularRecoveryIT::withoutEmptyStrings)
                .toList();
        JsonNode view = Http.get(stack.apiUri("/restores/" + id)).json();
        assertThat(view.get("strategy").asString()).isEqualTo("FILE_EXPORT");
        assertThat(view.get("itemsWritten").asLong()).isEqualTo(expected.size());
        assertThat(view.get("file").get("capped").asBoolean()).isFalse();

        HttpResponse<byte[]> download =
                get(stack.apiUri(view.get("file").get("download").asString()));
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
        assertThat(download.headers().firstValue("Content-Disposition").orElse(""))
                .contains("attachment")
                .contains(".csv");
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(download.body())))
                .isEqualTo(view.get("file").get("sha256").asString())
                .isEqualTo(download.headers().firstValue("X-Checksum-SHA256").orElse(""));
        String csv = new String(download.body(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(csv.lines().findFirst().orElseThrow()).startsWith("pk (S),sk (N),");
        assertThat(ItemDigests.of(read(csv), BackupFixtures.KEYS))
                .isEqualTo(ItemDigests.of(expected, BackupFixtures.KEYS));
    }

    @Test
    void stopsAtTheCapAndSaysSoInTheRestoresStatus() throws Exception {
        // When every item (3,000) is restored into a file whose cap is 2,000
        String id = stack.restoreAndAwaitCompletion("""
                {"source": {"table": "file-orders", "backupId": "b-file"},
                 "destination": {"type": "FILE", "format": "CSV", "delivery": {"type": "DOWNLOAD"}}}""");

        // Then the file holds 2,000 items and the status says the cap stopped it
        JsonNode file = Http.get(stack.apiUri("/restores/" + id)).json().get("file");
        assertThat(file.get("items").asLong()).isEqualTo(CAP);
        assertThat(file.get("capped").asBoolean()).isTrue();
        assertThat(file.get("note").asString()).contains("cap of " + CAP);
        var download = get(stack.apiUri("/restores/" + id + "/download"));
        assertThat(read(new String(download.body(), java.nio.charset.StandardCharsets.UTF_8)))
                .hasSize(CAP);
    }

    @Test
    void splitsALargeExportOverTwoExporterReplicasIntoTheFileOneReplicaWrites() throws Exception {
        // Given the file of every item (3,000 in 5 data files, above the stack's split threshold of
        // 2,500; capped at 2,000) as the one exporter writes it
        String everyItem = """
                {"source": {"table": "file-orders", "backupId": "b-file"},
                 "destination": {"type": "FILE", "format": "CSV", "delivery": {"type": "DOWNLOAD"}}}""";
        String whole = stack.restoreAndAwaitCompletion(everyItem);
        byte[] one = get(stack.apiUri("/restores/" + whole + "/download")).body();

        // When a second exporter joins the group and the same restore runs again
        var second = stack.startExporter();
        try (var status = stack.followStatus()) {
            awaitExporters(2);
            String split = stack.restoreAndAwaitCompletion(everyItem);

            // Then it was planned as 2 parts and a merge (segment 2), the parts were written by both replicas,
            await().atMost(Duration.ofSeconds(30)).until(() -> status.has(split, "RestoreCompleted"));
            assertThat(status.last(split, "RestorePlanned").get("segments").asInt())
                    .isEqualTo(3);
            var parts = status.of(split).stream()
                    .filter(e -> e.type().equals("SegmentCompleted"))
                    .map(e -> e.json())
                    .toList();
            assertThat(parts).extracting(e -> e.get("segment").asInt()).containsOnly(0, 1, 2);
            assertThat(parts.stream()
                            .filter(e -> e.get("segment").asInt() < 2)
                            .map(e -> e.get("writer").asString())
                            .distinct())
                    .hasSize(2);
            // each part telling dashboards how many rows it staged (each part stops at the cap on its own)
            assertThat(parts.stream().filter(e -> e.get("segment").asInt() < 2))
                    .allSatisfy(e -> assertThat(e.get("itemsWritten").asLong()).isBetween(1L, (long) CAP));
            assertThat(parts.stream()
                            .filter(e -> e.get("segment").asInt() < 2)
                            .mapToLong(e -> e.get("itemsWritten").asLong())
                            .sum())
                    .isGreaterThanOrEqualTo(CAP);
            assertThat(status.of(split).stream().filter(e -> e.type().equals("SegmentsDispatched")))
                    .extracting(e -> e.json().get("phase").asString())
                    .containsExactly("BASE", "DELTA");

            // and the file is the one the single replica wrote, byte for byte, its parts cleaned up
            JsonNode view = Http.get(stack.apiUri("/restores/" + split)).json();
            assertThat(view.get("itemsWritten").asLong())
                    .as("the parts' rows are not counted again")
                    .isEqualTo(CAP);
            assertThat(view.get("segmentsCompleted").asInt())
                    .isEqualTo(view.get("segments").asInt());
            JsonNode file = view.get("file");
            assertThat(file.get("items").asLong()).isEqualTo(CAP);
            assertThat(file.get("capped").asBoolean()).isTrue();
            assertThat(get(stack.apiUri("/restores/" + split + "/download")).body())
                    .isEqualTo(one);
            assertThat(stack.s3
                            .client()
                            .listObjectsV2(b -> b.bucket(RestoreStack.BUCKET).prefix("_staging/" + split + "/"))
                            .contents())
                    .isEmpty();
        } finally {
            stack.stop(second);
        }
    }

    /** Waits until {@code members} exporters share restore.exports. */
    private static void awaitExporters(int members) throws Exception {
        try (var admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers()))) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(300))
                    .until(() -> {
                        var group = admin.describeConsumerGroups(List.of("exporter"))
                                .all()
                                .get()
                                .get("exporter");
                        return group.groupState() == GroupState.STABLE
                                && group.members().stream()
                                                .filter(m -> !m.assignment()
                                                        .topicPartitions()
                                                        .isEmpty())
                                                .count()
                                        == members;
                    });
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a point in time | {\"table\": \"file-orders\", \"pointInTime\": \"latest\"} | {\"type\": \"DOWNLOAD\"} | /source/pointInTime",
            })
    void refusesWhatGranularRecoveryDoesNotOffer(String name, String source, String delivery, String field)
            throws Exception {
        var response = Http.post(stack.apiUri("/restores"), """
                {"source": %s, "destination": {"type": "FILE", "format": "CSV", "delivery": %s}}""".formatted(source, delivery));
        assertThat(response.status()).as(response.body()).isEqualTo(422);
        assertThat(response.json().get("code").asString()).isEqualTo("UNSUPPORTED");
        assertThat(response.json().get("errors").findValuesAsString("field")).contains(field);
    }

    @Test
    void answersADownloadOfARestoreWithoutAFileWithAProblem() throws Exception {
        var response = get(stack.apiUri("/restores/no-such-restore/download"));
        assertThat(response.statusCode()).isEqualTo(404);
    }

    static HttpResponse<byte[]> get(URI uri) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(uri)
                                .header(LocalApi.HEADER, LocalApi.KEY)
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
    }

    static Map<String, AttributeValue> withoutEmptyStrings(Map<String, AttributeValue> item) {
        var copy = new LinkedHashMap<>(item);
        copy.values().removeIf(v -> v.s() != null && v.s().isEmpty());
        return copy;
    }

    static List<Map<String, AttributeValue>> read(String csv) {
        return ConsoleCsv.readAll(csv);
    }
}
