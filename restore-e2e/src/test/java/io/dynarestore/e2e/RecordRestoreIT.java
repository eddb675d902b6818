package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/**
 * Record restores (filters) and in-place restores against an oracle: a brute-force replay of
 * random histories, with the live table changed after the restored point.
 */
class RecordRestoreIT {

    static final long SECOND = HistoryFixtures.SECOND;
    static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();
    static final KeySchema KEY = new KeySchema("pk", "S", "sk", "N");
    static final long T0 = PitrRestoreIT.noon() * SECOND + 500_000;

    @RegisterExtension
    static final StackSession on = new StackSession();

    static boolean badFilterTable;

    /** A table with a history in the vault (base at T0, every write over 90 s exported) and its live state at the end. */
    static RandomHistory table(String name, long seed) {
        var history = new RandomHistory(seed, SHAPE, 30 + (int) (seed % 40), 80 + (int) (seed % 120), T0, 90 * SECOND);
        HistoryFixtures.liveTable(on.stack(), name, history, SHAPE, T0, 11);
        return history;
    }

    static void createTable(String name) {
        HistoryFixtures.createTable(on.stack(), name);
    }

    static void put(String table, Iterable<Map<String, AttributeValue>> items) {
        HistoryFixtures.put(on.stack(), table, items);
    }

    record Case(String restoreId, String destination, TreeMap<String, String> expected) {}

    @Test
    void recordRestoresOfRandomHistoriesWriteTheMatchingImageAndTouchNothingElse() throws Exception {
        // Given 12 tables with random histories, each live table changed after the history's start
        var cases = new ArrayList<Case>();
        for (int seed = 0; seed < 12; seed++) {
            Random r = new Random(seed);
            String source = "rec-" + seed;
            var history = table(source, seed);
            Scope.Records scope = HistoryFixtures.randomFilter(r);
            RecordFilter filter = RecordFilter.compile(scope, KEY);
            boolean atBackup = seed % 2 == 0;
            // the restored second T holds every write before T + 1 s
            Instant t = Instant.ofEpochSecond(T0 / SECOND + 1 + r.nextInt(88));
            var image = atBackup ? baseImage(history) : history.imageBefore((t.getEpochSecond() + 1) * SECOND);
            var matched = new TreeMap<String, Map<String, AttributeValue>>();
            image.forEach((k, item) -> {
                if (filter.matches(item)) {
                    matched.put(k, item);
                }
            });
            String sourceJson = "{\"table\":\"" + source + "\","
                    + (atBackup ? "\"backupId\":\"base\"" : "\"pointInTime\":\"" + t + "\"") + "}";
            String scopeJson = Json.toString(scope).replace("\"type\":\"RECORDS\",", "");
            scopeJson = "{\"type\":\"RECORDS\"," + scopeJson.substring(1);

            // into a new table: exactly the matching items
            cases.add(submit(
                    "rec-new-" + seed,
                    sourceJson,
                    scopeJson,
                    "{\"type\":\"NEW_TABLE\",\"tableName\":\"rec-new-" + seed + "\"}",
                    "rec-new-" + seed,
                    HistoryFixtures.digests(matched)));

            // into an existing table holding other items and other versions of some: matches overwritten, rest kept
            String existing = "rec-existing-" + seed;
            createTable(existing);
            var other = new TreeMap<String, Map<String, AttributeValue>>();
            var otherItems = new RandomItems(1_000 + seed, SHAPE);
            for (int i = 0; i < 60; i++) {
                var item = otherItems.item(i, 3);
                other.put(ItemDigests.key(item, history.keyAttributes()), item);
            }
            put(existing, other.values());
            var expectedExisting = new TreeMap<>(other);
            expectedExisting.putAll(matched);
            cases.add(submit(
                    "rec-existing-" + seed,
                    sourceJson,
                    scopeJson,
                    "{\"type\":\"EXISTING_TABLE\"," + "\"tableName\":\"" + existing + "\"}",
                    existing,
                    HistoryFixtures.digests(expectedExisting)));

            // in place: the live table, changed after T; matches put back as they were, the rest untouched
            var live = history.imageBefore(Long.MAX_VALUE);
            var expectedLive = new TreeMap<>(live);
            expectedLive.putAll(matched);
            cases.add(submit(
                    "rec-inplace-" + seed,
                    sourceJson,
                    scopeJson,
                    "{\"type\":\"IN_PLACE\"}",
                    source,
                    HistoryFixtures.digests(expectedLive)));
        }

        // When they complete
        awaitAll(cases);

        // Then every destination equals its oracle
        for (Case c : cases) {
            assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), c.destination(), List.of("pk", "sk")))
                    .as(c.restoreId())
                    .isEqualTo(c.expected());
        }
        // and the counts say what happened: overwrites in place and in existing tables, with a warning
        JsonNode planned = on.status().last("rec-inplace-1", "RestorePlanned");
        assertThat(planned.get("warnings").get(0).asString())
                .contains("/rollback")
                .contains("dryRun");
        long unchanged = cases.stream()
                .filter(c -> c.restoreId().startsWith("rec-inplace"))
                .mapToLong(c -> on.status()
                        .last(c.restoreId(), "RestoreCompleted")
                        .get("itemsUnchanged")
                        .asLong())
                .sum();
        assertThat(unchanged)
                .as("items already as they were are not written again")
                .isPositive();
        assertThat(on.status().last("rec-new-1", "RestorePlanned").get("warnings"))
                .isNull();
    }

    @Test
    void aFullInPlaceRestoreLeavesTheTableEqualToTheImageDeletingWhatCameLater() throws Exception {
        // Given tables whose live state went on after the restored point: creates, updates, deletes
        var cases = new ArrayList<Case>();
        for (int seed = 20; seed < 26; seed++) {
            String source = "full-" + seed;
            var history = table(source, seed);
            Instant t = Instant.ofEpochSecond(T0 / SECOND + 10 + seed);
            String sourceJson = seed % 3 == 0
                    ? "{\"table\":\"" + source + "\",\"backupId\":\"base\"}"
                    : "{\"table\":\"" + source + "\",\"pointInTime\":\"" + t + "\"}";
            var image = seed % 3 == 0 ? baseImage(history) : history.imageBefore((t.getEpochSecond() + 1) * SECOND);
            cases.add(submit(
                    "full-inplace-" + seed,
                    sourceJson,
                    null,
                    "{\"type\":\"IN_PLACE\"}",
                    source,
                    HistoryFixtures.digests(image)));
        }

        // When they complete
        awaitAll(cases);

        // Then each table equals the image, items created after the point gone
        long deleted = 0;
        for (Case c : cases) {
            assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), c.destination(), List.of("pk", "sk")))
                    .as(c.restoreId())
                    .isEqualTo(c.expected());
            deleted += on.status()
                    .last(c.restoreId(), "RestoreCompleted")
                    .get("itemsDeleted")
                    .asLong();
        }
        assertThat(deleted).isPositive();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no key filter      | {\"type\":\"RECORDS\",\"keyFilters\":[]}                                                              | /scope/keyFilters",
                "number for a string| {\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\",\"values\":[\"p1\"]},\"sortKey\":{\"condition\":\"EqualTo\",\"values\":[\"one\"]}}]} | /scope/keyFilters/0/sortKey/values/0",
                "BeginsWith a number| {\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\",\"values\":[\"p1\"]},\"sortKey\":{\"condition\":\"BeginsWith\",\"values\":[\"1\"]}}]} | /scope/keyFilters/0/sortKey/condition",
                "non-key as key     | {\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":{\"name\":\"a1\",\"condition\":\"EqualTo\",\"values\":[\"x\"]}}]} | /scope/keyFilters/0/partitionKey/name",
            })
    void rejectsABadFilterOnRestAndOnKafkaWithTheFilterAndTheFix(String name, String scope, String field)
            throws Exception {
        if (!badFilterTable) {
            // (a listing would show only the first 100 of the shared stack's tables)
            table("bad-f", 99);
            badFilterTable = true;
        }
        String body = "{\"source\":{\"table\":\"bad-f\",\"backupId\":\"base\"},\"scope\":" + scope
                + ",\"destination\":{\"type\":\"NEW_TABLE\"}}";
        var response = Http.post(on.stack().apiUri("/restores"), body);
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.json().get("code").asString()).isEqualTo("INVALID_FILTER");
        assertThat(response.json().get("errors").findValuesAsString("field")).contains(field);

        String id = "bad-filter-" + Math.abs(name.hashCode());
        on.request(id, body.replace("{\"source\"", "{\"restoreId\":\"" + id + "\",\"source\""));
        JsonNode rejected = await().atMost(Duration.ofSeconds(30))
                .until(() -> on.status().last(id, "RestoreRejected"), e -> e != null);
        assertThat(rejected.get("code").asString()).isEqualTo("INVALID_FILTER");
        assertThat(rejected.get("errors").findValuesAsString("field")).contains(field);
    }

    @Test
    void warnsWhenItAcceptsARestoreThatOverwritesHowToSeeAndUndoIt() throws Exception {
        table("warned", 77);
        var response = Http.post(
                on.stack().apiUri("/restores"),
                "{\"source\":{\"table\":\"warned\",\"backupId\":\"base\"},"
                        + "\"scope\":{\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\","
                        + "\"values\":[\"p1\"]}}]},\"destination\":{\"type\":\"IN_PLACE\"}}");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        assertThat(response.json().get("warnings").get(0).asString())
                .contains("Items of warned that match the filters will be overwritten")
                .contains("undo journal");
        String id = response.json().get("restoreId").asString();
        await().atMost(Duration.ofSeconds(60)).until(() -> on.status().last(id, "RestoreCompleted") != null);
        var done = Http.get(on.stack().apiUri("/restores/" + id)).json();
        assertThat(done.get("itemsWritten").asLong()
                        + done.get("itemsUnchanged").asLong())
                .isPositive();
    }

    @Test
    void previewsTheFirstMatchesOfABackupAndOfAPointAndSaysWhetherItReadEverything() throws Exception {
        var history = table("prev", 42);
        var scope = new Scope.Records(
                List.of(new Scope.KeyFilter(new Scope.Condition("BeginsWith", List.of("p1")), null)), List.of());
        var filter = RecordFilter.compile(scope, KEY);
        String scopeJson = "{\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":{\"condition\":\"BeginsWith\","
                + "\"values\":[\"p1\"]}}]}";

        // at the backup, with room for all matches: every match, the whole backup read
        var all = Http.post(
                        on.stack().apiUri("/restores/preview"),
                        "{\"source\":{\"table\":\"prev\",\"backupId\":\"base\"}," + "\"scope\":" + scopeJson
                                + ",\"limit\":1000}")
                .json();
        var expected = new TreeMap<String, String>();
        baseImage(history).forEach((k, v) -> {
            if (filter.matches(v)) {
                expected.put(k, ItemDigests.digest(v));
            }
        });
        assertThat(all.get("complete").asBoolean()).isTrue();
        assertThat(records(all)).isEqualTo(expected);
        assertThat(all.get("columns").get(0).asString()).isEqualTo("pk");
        assertThat(all.get("columns").get(1).asString()).isEqualTo("sk");

        // at a point in time: the image's matches
        Instant t = Instant.ofEpochSecond(T0 / SECOND + 44);
        var atPoint = Http.post(
                        on.stack().apiUri("/restores/preview"),
                        "{\"source\":{\"table\":\"prev\",\"pointInTime\":\"" + t + "\"},\"scope\":" + scopeJson
                                + ",\"limit\":1000}")
                .json();
        var expectedAtPoint = new TreeMap<String, String>();
        history.imageBefore((t.getEpochSecond() + 1) * SECOND).forEach((k, v) -> {
            if (filter.matches(v)) {
                expectedAtPoint.put(k, ItemDigests.digest(v));
            }
        });
        assertThat(atPoint.get("complete").asBoolean()).isTrue();
        assertThat(records(atPoint)).isEqualTo(expectedAtPoint);

        // with a limit: the first matches only, and not complete
        var first = Http.post(
                        on.stack().apiUri("/restores/preview"),
                        "{\"source\":{\"table\":\"prev\",\"backupId\":\"base\"}," + "\"scope\":" + scopeJson
                                + ",\"limit\":2}")
                .json();
        assertThat(first.get("count").asInt()).isEqualTo(2);
        assertThat(first.get("complete").asBoolean()).isFalse();
        assertThat(expected).containsAllEntriesOf(records(first));

        // within a time bound too short to read anything: not complete
        var rushed = Http.post(
                on.stack().apiUri("/restores/preview"),
                "{\"source\":{\"table\":\"prev\",\"backupId\":" + "\"base\"},\"timeLimitMs\":1,\"limit\":1000}");
        assertThat(rushed.status()).isEqualTo(200);
        assertThat(rushed.json().get("complete").asBoolean()).isFalse();

        // and a bad filter is a 400 that names it
        var bad = Http.post(
                on.stack().apiUri("/restores/preview"),
                "{\"source\":{\"table\":\"prev\",\"backupId\":\"base\"},"
                        + "\"scope\":{\"type\":\"RECORDS\",\"keyFilters\":[]}}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("code").asString()).isEqualTo("INVALID_FILTER");
    }

    @Test
    void aPreviewStaysWithinItsBytesAndItsMemoryBudget() throws Exception {
        // Given a table with history, and a restore-api whose previews may answer 1 KB and keep 2 KB of delta
        table("bounded", 43);
        var tight = on.stack().startApiReplica("--api.limits.preview-bytes=1KB", "--api.limits.preview-memory=2KB");
        try {
            // When the whole backup is previewed, and a point in time with more changes than the budget holds
            var bytes = Http.post(
                            RestoreStack.uri(tight, "/restores/preview"),
                            "{\"source\":{\"table\":\"bounded\"," + "\"backupId\":\"base\"},\"limit\":1000}")
                    .json();
            var memory = Http.post(
                            RestoreStack.uri(tight, "/restores/preview"),
                            "{\"source\":{\"table\":\"bounded\"," + "\"pointInTime\":\""
                                    + Instant.ofEpochSecond(T0 / SECOND + 44) + "\"},\"limit\":1000}")
                    .json();

            // Then each stops at its bound, says which, and answers within it
            assertThat(bytes.get("complete").asBoolean()).isFalse();
            assertThat(bytes.get("stoppedBy").asString()).contains("bytes");
            assertThat(bytes.get("records").toString().length()).isLessThan(8 * 1024);
            assertThat(memory.get("complete").asBoolean()).isFalse();
            assertThat(memory.get("stoppedBy").asString()).contains("memory budget");
        } finally {
            on.stack().stop(tight);
        }
    }

    static TreeMap<String, String> records(JsonNode preview) {
        var result = new TreeMap<String, String>();
        for (JsonNode r : preview.get("records")) {
            var item = io.dynarestore.core.codec.DynamoJson.fromJson(r.toString());
            result.put(ItemDigests.key(item, List.of("pk", "sk")), ItemDigests.digest(item));
        }
        return result;
    }

    static TreeMap<String, Map<String, AttributeValue>> baseImage(RandomHistory history) {
        var image = new TreeMap<String, Map<String, AttributeValue>>();
        history.base().forEach(item -> image.put(ItemDigests.key(item, history.keyAttributes()), item));
        return image;
    }

    static Case submit(
            String restoreId,
            String source,
            String scope,
            String destination,
            String table,
            TreeMap<String, String> expected)
            throws Exception {
        String body = "{\"restoreId\":\"" + restoreId + "\",\"source\":" + source
                + (scope == null ? "" : ",\"scope\":" + scope) + ",\"destination\":" + destination + "}";
        on.request(restoreId, body);
        return new Case(restoreId, table, expected);
    }

    static void awaitAll(List<Case> cases) {
        on.awaitCompleted(cases.stream().map(Case::restoreId).toList(), Duration.ofMinutes(5));
    }
}
