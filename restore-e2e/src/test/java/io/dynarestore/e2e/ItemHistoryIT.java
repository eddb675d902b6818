package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/**
 * An item's history over the REST API, read from the vault in S3, equals a brute-force replay of
 * the table's writes of that key; and "restore this version" (a record restore of the key, in
 * place, at the version's second) leaves exactly that key at that image.
 */
class ItemHistoryIT {

    static final long SECOND = HistoryFixtures.SECOND;
    static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();
    static final List<String> KEY = List.of("pk", "sk");

    @RegisterExtension
    static final StackSession on = new StackSession();

    @Test
    void everyVersionOfAKeyComesBackOldestFirstAndRestoringOneLeavesThatKeyAtItsImage() throws Exception {
        // Given a live table whose vault holds a base backup and a change log over its history
        long t0 = (Instant.now().getEpochSecond() - 100) * SECOND + 500_000;
        var history = new RandomHistory(23, SHAPE, 30, 160, t0, 90 * SECOND);
        HistoryFixtures.liveTable(on.stack(), "history-it", history, SHAPE, t0, 7);
        var keys = new ArrayList<Map<String, AttributeValue>>();
        history.writes().forEach(w -> {
            if (keys.stream().noneMatch(k -> same(k, w.keys()))) {
                keys.add(w.keys());
            }
        });

        // When the history of ten random keys is read, in pages of three
        Random r = new Random(23);
        Map<String, AttributeValue> restoredKey = null;
        JsonNode restoredVersion = null;
        for (int k = 0; k < 10; k++) {
            var key = keys.get(r.nextInt(keys.size()));
            var versions = new ArrayList<JsonNode>();
            String from = null;
            for (int page = 0; page < 100; page++) {
                JsonNode answer = history("history-it", key, from, 3);
                answer.get("versions").forEach(versions::add);
                if (!answer.hasNonNull("next")) { // absent at the end
                    break;
                }
                from = answer.get("next").asString();
            }

            // Then they are the key's writes, oldest first, each with the image it left and what it did
            var expected = new ArrayList<String>();
            for (var w : history.writes()) {
                if (same(w.keys(), key)) {
                    String kind = w.newImage() == null ? "DELETED" : w.oldImage() == null ? "CREATED" : "OVERWRITTEN";
                    expected.add(HistoryFixtures.instant(w.micros()) + " " + kind + " "
                            + (w.newImage() == null ? null : ItemDigests.canonical(w.newImage())));
                }
            }
            var read = versions.stream()
                    .map(v -> Instant.parse(v.get("time").asString()) + " "
                            + v.get("kind").asString() + " "
                            + (!v.hasNonNull("item")
                                    ? null
                                    : ItemDigests.canonical(
                                            DynamoJson.fromJson(v.get("item").toString()))))
                    .toList();
            assertThat(read).as("history of %s", key).isEqualTo(expected);
            if (k == 0) { // the command line answers the same, its key given as DynamoDB JSON ("to" is now)
                assertThat(Cli.run(
                                        on.stack().apiUri(""),
                                        "history",
                                        "history-it",
                                        DynamoJson.toJson(key),
                                        "--limit",
                                        "3")
                                .get("versions"))
                        .isEqualTo(history("history-it", key, null, 3).get("versions"));
            }
            for (int i = 0; i + 1 < versions.size() && restoredVersion == null; i++) {
                if (versions.get(i).hasNonNull("restoreSource")
                        && versions.get(i).get("restoreSource").has("pointInTime")) {
                    restoredKey = key;
                    restoredVersion = versions.get(i);
                }
            }
        }

        // When a version that is not the key's last is restored in place, dry run first
        assertThat(restoredVersion).as("a version to restore").isNotNull();
        String second = restoredVersion.at("/restoreSource/pointInTime").asString();
        String body = "\"source\":{\"table\":\"history-it\",\"pointInTime\":\"" + second + "\"},"
                + "\"scope\":{\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\","
                + "\"values\":[\"" + restoredKey.get("pk").s() + "\"]},\"sortKey\":{\"condition\":\"EqualTo\","
                + "\"values\":[\"" + restoredKey.get("sk").n() + "\"]}}]},\"destination\":{\"type\":\"IN_PLACE\"}";
        var before = ItemDigests.ofTable(on.stack().dynalite.client(), "history-it", KEY);
        on.request("history-dry", "{\"restoreId\":\"history-dry\"," + body + ",\"dryRun\":true}");
        on.awaitCompleted(List.of("history-dry"), Duration.ofMinutes(3));
        assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), "history-it", KEY))
                .as("a dry run writes nothing")
                .isEqualTo(before);
        on.request("history-restore", "{\"restoreId\":\"history-restore\"," + body + "}");
        on.awaitCompleted(List.of("history-restore"), Duration.ofMinutes(3));

        // Then that key holds the version's image, and every other key is as it was
        var expected = new TreeMap<>(before);
        var image = DynamoJson.fromJson(restoredVersion.get("item").toString());
        expected.put(ItemDigests.key(image, KEY), ItemDigests.digest(image));
        assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), "history-it", KEY))
                .isEqualTo(expected);
        assertThat(expected).isNotEqualTo(before);
    }

    private static JsonNode history(String table, Map<String, AttributeValue> key, String from, int limit)
            throws Exception {
        String query = "key=" + URLEncoder.encode(DynamoJson.toJson(key), StandardCharsets.UTF_8) + "&limit=" + limit
                + (from == null ? "" : "&from=" + URLEncoder.encode(from, StandardCharsets.UTF_8));
        var response = Http.get(on.stack().apiUri("/tables/" + table + "/items/history?" + query));
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }

    private static boolean same(Map<String, AttributeValue> a, Map<String, AttributeValue> b) {
        return ItemDigests.key(a, KEY).equals(ItemDigests.key(b, KEY));
    }
}
