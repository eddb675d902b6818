package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.writer.segments.WriterFaults;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/**
 * The undo of a window (T1, T2] (ADR 0031): the keys written only in it go back to their image at
 * T1, the keys written in it and again after it are conflicts, reported with both images and left
 * as they are, or taken back too with {@code onConflict: OVERWRITE}; every other key is untouched.
 * A strict undo never overwrites a write that lands while it runs, and reports it as a conflict.
 */
class UndoWindowIT {

    static final long SECOND = HistoryFixtures.SECOND;
    static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();
    /** Random windows per property, as issue #21 asks. */
    static final int WINDOWS = 100;

    @RegisterExtension
    static final StackSession on = new StackSession();

    /** One undo: the table's expected digests, its conflicts, and how many keys it must touch. */
    record Case(
            String restoreId,
            String table,
            TreeMap<String, String> expected,
            Set<String> conflicts,
            long touched,
            TreeMap<String, String> live) {}

    /** A live table with a random history of 90 s from {@code t0}, and a random window (t1, t2] in it, in seconds. */
    record Window(RandomHistory history, long t1, long t2) {
        static Window live(String table, long seed, Random r, long t0) {
            var history = new RandomHistory(seed, SHAPE, 40 + r.nextInt(40), 80 + r.nextInt(120), t0, 90 * SECOND);
            HistoryFixtures.liveTable(on.stack(), table, history, SHAPE, t0, 5 + r.nextInt(9));
            long t1 = t0 / SECOND + r.nextInt(40);
            return new Window(history, t1, t1 + 1 + r.nextInt(40));
        }
    }

    @Test
    void undoesRandomWindowsRevertingOnlyTheirKeysAndReportingTheConflicts() throws Exception {
        // Given 100 live tables with random histories, and a random window in each with writes after it
        long t0 = (Instant.now().getEpochSecond() - 100) * SECOND + 500_000;
        var cases = new ArrayList<Case>();
        for (int seed = 0; seed < WINDOWS; seed++) {
            Random r = new Random(100 + seed);
            String table = "window-" + seed;
            var window = Window.live(table, 100 + seed, r, t0);
            var history = window.history();
            long t1 = window.t1();
            long t2 = window.t2();
            boolean overwrite = seed % 2 == 1;
            var atT1 = history.imageBefore((t1 + 1) * SECOND);
            var live = history.imageBefore(Long.MAX_VALUE);
            var inWindow = keys(history, (t1 + 1) * SECOND, (t2 + 1) * SECOND);
            var after = keys(history, (t2 + 1) * SECOND, Long.MAX_VALUE);
            var conflicts = new HashSet<>(inWindow);
            conflicts.retainAll(after);
            var expected = new TreeMap<>(live);
            long touched = 0;
            for (String key : inWindow) {
                boolean conflict = conflicts.contains(key);
                if (conflict && !overwrite) {
                    continue;
                }
                if (atT1.containsKey(key) || live.containsKey(key)) {
                    touched++;
                }
                if (atT1.containsKey(key)) {
                    expected.put(key, atT1.get(key));
                } else {
                    expected.remove(key);
                }
            }
            String id = "window-" + seed;
            String body = "{\"restoreId\":\"" + id + "\",\"source\":{\"table\":\"" + table + "\",\"pointInTime\":\""
                    + Instant.ofEpochSecond(t1) + "\",\"undo\":{\"until\":\"" + Instant.ofEpochSecond(t2)
                    + "\",\"onConflict\":\"" + (overwrite ? "OVERWRITE" : "LEAVE") + "\"}},"
                    + "\"destination\":{\"type\":\"IN_PLACE\"}}";
            if (seed == 0) {
                // over REST, as a person in an incident sends it
                var response = Http.post(on.stack().apiUri("/restores"), body);
                assertThat(response.status()).as(response.body()).isEqualTo(202);
            } else {
                on.request(id, body);
            }
            cases.add(new Case(
                    id, table, HistoryFixtures.digests(expected), conflicts, touched, HistoryFixtures.digests(live)));
        }

        // When they complete
        on.awaitCompleted(cases.stream().map(Case::restoreId).toList(), Duration.ofMinutes(10));

        // Then each table equals the oracle; the plan reports exactly the conflicts, with both images;
        // and the undo touched only the keys it reverts
        for (Case c : cases) {
            assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), c.table(), List.of("pk", "sk")))
                    .as(c.restoreId())
                    .isEqualTo(c.expected());
            JsonNode planned = on.status().last(c.restoreId(), "RestorePlanned");
            assertThat(planned.get("strategyReason").asString())
                    .as(c.restoreId())
                    .startsWith("Undo of (");
            JsonNode conflicts = planned.get("conflicts");
            assertThat(conflicts.get("count").asLong())
                    .as(c.restoreId())
                    .isEqualTo(c.conflicts().size());
            for (JsonNode sample : conflicts.get("samples")) {
                var key = DynamoJson.fromJson(sample.get("key").asString());
                assertThat(c.conflicts()).contains(ItemDigests.key(key, List.of("pk", "sk")));
                // both images as the log has them (absent: the key did not exist then, or was deleted)
                var latest = c.live().get(ItemDigests.key(key, List.of("pk", "sk")));
                assertThat(
                                sample.has("latest")
                                        ? ItemDigests.digest(DynamoJson.fromJson(
                                                sample.get("latest").asString()))
                                        : null)
                        .isEqualTo(latest);
            }
            assertThat(conflicts.get("samples").size())
                    .isEqualTo((int) Math.min(10, c.conflicts().size()));
            JsonNode completed = on.status().last(c.restoreId(), "RestoreCompleted");
            long touched = completed.get("itemsWritten").asLong()
                    + completed.get("itemsUnchanged").asLong()
                    + completed.get("itemsDeleted").asLong();
            assertThat(touched).as(c.restoreId()).isEqualTo(c.touched());
        }
        assertThat(cases.stream().mapToLong(c -> c.conflicts().size()).sum())
                .as("the windows leave keys written again after them")
                .isPositive();
    }

    @Test
    void neverOverwritesWritesThatLandWhileAStrictUndoRunsAndReportsThemAsConflicts() throws Exception {
        // Given 5 live tables with random histories and a window each, and an application that writes a
        // third of the keys each strict undo reverts just after the writer has read them
        long t0 = (Instant.now().getEpochSecond() - 100) * SECOND + 500_000;
        var cases = new ArrayList<Case>();
        var racing = new HashMap<String, Set<String>>();
        for (int seed = 0; seed < 5; seed++) {
            Random r = new Random(200 + seed);
            String table = "strict-" + seed;
            var window = Window.live(table, 200 + seed, r, t0);
            var history = window.history();
            long t1 = window.t1();
            long t2 = window.t2();
            var atT1 = HistoryFixtures.digests(history.imageBefore((t1 + 1) * SECOND));
            var live = HistoryFixtures.digests(history.imageBefore(Long.MAX_VALUE));
            var keyItems = new HashMap<String, Map<String, AttributeValue>>();
            history.writesIn((t1 + 1) * SECOND, (t2 + 1) * SECOND, false)
                    .forEach(w -> keyItems.put(ItemDigests.key(w.keys(), history.keyAttributes()), w.keys()));
            var conflicts = new HashSet<>(keyItems.keySet());
            conflicts.retainAll(keys(history, (t2 + 1) * SECOND, Long.MAX_VALUE));
            String id = "strict-" + seed;
            var expected = new TreeMap<>(live);
            var injected = new HashSet<String>();
            var images = new ArrayList<Map<String, AttributeValue>>();
            long touched = 0;
            for (String key : new TreeSet<>(keyItems.keySet())) {
                if (conflicts.contains(key) || java.util.Objects.equals(atT1.get(key), live.get(key))) {
                    continue; // left as it is, or at its image of T1 already: nothing to revert
                }
                if (r.nextInt(3) == 0) {
                    var image = new java.util.LinkedHashMap<>(keyItems.get(key));
                    image.put("racing", AttributeValue.fromS(id));
                    images.add(image);
                    injected.add(key);
                    expected.put(key, ItemDigests.digest(image));
                    continue;
                }
                touched++;
                if (atT1.containsKey(key)) {
                    expected.put(key, atT1.get(key));
                } else {
                    expected.remove(key);
                }
            }
            WriterFaults.inject(id, images, history.keyAttributes());
            racing.put(id, injected);
            String body = "{\"restoreId\":\"" + id + "\",\"source\":{\"table\":\"" + table + "\",\"pointInTime\":\""
                    + Instant.ofEpochSecond(t1) + "\",\"undo\":{\"until\":\"" + Instant.ofEpochSecond(t2)
                    + "\",\"strict\":true}},\"destination\":{\"type\":\"IN_PLACE\"}}";
            if (seed == 0) {
                var response = Http.post(on.stack().apiUri("/restores"), body);
                assertThat(response.status()).as(response.body()).isEqualTo(202);
            } else {
                on.request(id, body);
            }
            cases.add(new Case(id, table, expected, conflicts, touched, live));
        }

        // When they complete
        on.awaitCompleted(cases.stream().map(Case::restoreId).toList(), Duration.ofMinutes(5));

        // Then every racing write is still there, reported as a conflict with the image it left;
        // every other key of the window is reverted; and the verification accounts for both
        for (Case c : cases) {
            var injected = racing.get(c.restoreId());
            assertThat(WriterFaults.pending(c.restoreId()))
                    .as(c.restoreId() + ": every racing write landed between a read and a write")
                    .isZero();
            assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), c.table(), List.of("pk", "sk")))
                    .as(c.restoreId())
                    .isEqualTo(c.expected());
            JsonNode completed = on.status().last(c.restoreId(), "RestoreCompleted");
            assertThat(completed.get("verification").get("status").asString()).isEqualTo("PASSED");
            JsonNode conflicts = completed.get("conflicts");
            long expectedConflicts = c.conflicts().size() + injected.size();
            if (expectedConflicts == 0) {
                assertThat(conflicts == null || conflicts.isNull())
                        .as(c.restoreId())
                        .isTrue();
                continue;
            }
            assertThat(conflicts.get("count").asLong()).as(c.restoreId()).isEqualTo(expectedConflicts);
            for (JsonNode sample : conflicts.get("samples")) {
                String key =
                        ItemDigests.key(DynamoJson.fromJson(sample.get("key").asString()), List.of("pk", "sk"));
                assertThat(c.conflicts().contains(key) || injected.contains(key))
                        .as(c.restoreId() + " sample " + key)
                        .isTrue();
                if (injected.contains(key)) {
                    assertThat(ItemDigests.digest(
                                    DynamoJson.fromJson(sample.get("latest").asString())))
                            .isEqualTo(c.expected().get(key));
                }
            }
            long touched = completed.get("itemsWritten").asLong()
                    + completed.get("itemsUnchanged").asLong()
                    + completed.get("itemsDeleted").asLong();
            assertThat(touched).as(c.restoreId()).isEqualTo(c.touched());
        }
        assertThat(racing.values().stream().mapToInt(Set::size).sum())
                .as("writes raced the undos")
                .isGreaterThan(5);
    }

    @Test
    void refusesAnUndoOfAWindowTheChangeLogDoesNotHoldNamingItsEnd() throws Exception {
        // Given a table whose change log ends about now
        long t0 = (Instant.now().getEpochSecond() - 100) * SECOND + 500_000;
        var history = new RandomHistory(7, SHAPE, 30, 40, t0, 90 * SECOND);
        HistoryFixtures.liveTable(on.stack(), "undo-refused", history, SHAPE, t0, 9);

        // When a window reaching an hour past it is undone
        var response = Http.post(
                on.stack().apiUri("/restores"),
                "{\"source\":{\"table\":\"undo-refused\",\"pointInTime\":\""
                        + Instant.ofEpochSecond(t0 / SECOND + 10) + "\",\"undo\":{\"until\":\""
                        + Instant.ofEpochSecond(t0 / SECOND + 3_600) + "\"}},\"destination\":{\"type\":\"IN_PLACE\"}}");

        // Then it is refused naming the window's end and where the log ends
        assertThat(response.status()).as(response.body()).isEqualTo(422);
        assertThat(response.body()).contains("/source/undo/until").contains("up to");
    }

    private static Set<String> keys(RandomHistory history, long from, long until) {
        var keys = new HashSet<String>();
        history.writesIn(from, until, false).forEach(w -> keys.add(ItemDigests.key(w.keys(), history.keyAttributes())));
        return keys;
    }
}
