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
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * In-place restores to a second of tables whose change log runs up to now are backtracks (ADR
 * 0031): only the keys written after T are written, each back to its image at T, and the table
 * ends equal to a brute-force replay of its history up to T.
 */
class BacktrackIT {

    static final long SECOND = HistoryFixtures.SECOND;
    static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();
    static final KeySchema KEY = new KeySchema("pk", "S", "sk", "N");
    /** Random histories per property, as issue #21 asks. */
    static final int HISTORIES = 100;

    @RegisterExtension
    static final StackSession on = new StackSession();

    /** One restore: its table's expected digests and the keys it must write (or find equal, or delete). */
    record Case(String restoreId, String table, TreeMap<String, String> expected, Set<String> touched) {}

    @Test
    void backtracksRandomHistoriesInPlaceWritingOnlyTheKeysWrittenSinceTheSecond() throws Exception {
        // Given 100 live tables whose change log runs up to now, and a random second T in each history
        long t0 = (Instant.now().getEpochSecond() - 100) * SECOND + 500_000;
        var cases = new ArrayList<Case>();
        for (int seed = 0; seed < HISTORIES; seed++) {
            Random r = new Random(seed);
            String table = "backtrack-" + seed;
            var history = new RandomHistory(seed, SHAPE, 60 + r.nextInt(40), 60 + r.nextInt(140), t0, 90 * SECOND);
            HistoryFixtures.liveTable(on.stack(), table, history, SHAPE, t0, 7 + r.nextInt(9));
            Instant t = Instant.ofEpochSecond(t0 / SECOND + r.nextInt(89));
            long after = (t.getEpochSecond() + 1) * SECOND;
            var image = history.imageBefore(after);
            var live = history.imageBefore(Long.MAX_VALUE);
            var writtenSince = new TreeSet<String>();
            history.writesIn(after, Long.MAX_VALUE, false)
                    .forEach(w -> writtenSince.add(ItemDigests.key(w.keys(), history.keyAttributes())));
            // a key created and deleted since is absent then and now: nothing to revert
            writtenSince.removeIf(k -> !image.containsKey(k) && !live.containsKey(k));
            String scope = null;
            var expected = image;
            Set<String> touched = writtenSince;
            if (seed % 2 == 1) {
                // a record restore: keys written since whose image at T matches go back; nothing is deleted
                Scope.Records filter = HistoryFixtures.randomFilter(r);
                RecordFilter compiled = RecordFilter.compile(filter, KEY);
                expected = new TreeMap<>(live);
                touched = new TreeSet<>();
                for (String key : writtenSince) {
                    var then = image.get(key);
                    if (then != null && compiled.matches(then)) {
                        expected.put(key, then);
                        touched.add(key);
                    }
                }
                scope = "{\"type\":\"RECORDS\","
                        + Json.toString(filter)
                                .replace("\"type\":\"RECORDS\",", "")
                                .substring(1);
            }
            String id = "backtrack-" + seed;
            String body = "{\"restoreId\":\"" + id + "\",\"source\":{\"table\":\"" + table + "\",\"pointInTime\":\""
                    + t + "\"}" + (scope == null ? "" : ",\"scope\":" + scope)
                    + ",\"destination\":{\"type\":\"IN_PLACE\"}}";
            on.request(id, body);
            cases.add(new Case(id, table, HistoryFixtures.digests(expected), touched));
        }

        // When they complete
        on.awaitCompleted(cases.stream().map(Case::restoreId).toList(), Duration.ofMinutes(10));

        // Then each was planned as a backtrack and left its table equal to the oracle,
        // having written (or found equal, or deleted) exactly the keys written since T that its scope selects
        for (Case c : cases) {
            JsonNode planned = on.status().last(c.restoreId(), "RestorePlanned");
            assertThat(planned.get("strategyReason").asString())
                    .as(c.restoreId())
                    .startsWith("Backtrack");
            assertThat(planned.get("warnings").toString()).contains("writes made after that are not in it");
            assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), c.table(), List.of("pk", "sk")))
                    .as(c.restoreId())
                    .isEqualTo(c.expected());
            JsonNode completed = on.status().last(c.restoreId(), "RestoreCompleted");
            long touched = completed.get("itemsWritten").asLong()
                    + completed.get("itemsUnchanged").asLong()
                    + completed.get("itemsDeleted").asLong();
            assertThat(touched).as(c.restoreId()).isEqualTo(c.touched().size());
        }
    }

    @Test
    void aBacktrackIsDryRunFirstAndRolledBackAfterLikeAnyRestore() throws Exception {
        // Given a live table whose change log runs up to now, and a second T in its history
        long t0 = (Instant.now().getEpochSecond() - 100) * SECOND + 500_000;
        var history = new RandomHistory(77, SHAPE, 80, 150, t0, 90 * SECOND);
        HistoryFixtures.liveTable(on.stack(), "backtrack-undo", history, SHAPE, t0, 9);
        Instant t = Instant.ofEpochSecond(t0 / SECOND + 30);
        var live = HistoryFixtures.digests(history.imageBefore(Long.MAX_VALUE));
        String request = "\"source\":{\"table\":\"backtrack-undo\",\"pointInTime\":\"" + t + "\"},"
                + "\"destination\":{\"type\":\"IN_PLACE\"}";

        // When it is dry-run
        on.request("backtrack-dry", "{\"restoreId\":\"backtrack-dry\"," + request + ",\"dryRun\":true}");
        JsonNode dry = completed("backtrack-dry");

        // Then it was planned as a backtrack, changed nothing, and says what the restore would do
        assertThat(on.status()
                        .last("backtrack-dry", "RestorePlanned")
                        .get("strategyReason")
                        .asString())
                .startsWith("Backtrack");
        assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), "backtrack-undo", List.of("pk", "sk")))
                .isEqualTo(live);
        JsonNode diff = dry.get("diff");

        // When it is run, then rolled back
        on.request("backtrack-run", "{\"restoreId\":\"backtrack-run\"," + request + "}");
        JsonNode run = completed("backtrack-run");
        assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), "backtrack-undo", List.of("pk", "sk")))
                .isEqualTo(HistoryFixtures.digests(history.imageBefore((t.getEpochSecond() + 1) * SECOND)));
        var response = Http.post(on.stack().apiUri("/restores/backtrack-run/rollback"), "{\"reason\":\"test\"}");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        JsonNode rolledBack = await().atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(300))
                .until(
                        () -> {
                            JsonNode done = on.status().last("backtrack-run", "RollbackCompleted");
                            return done != null ? done : on.status().last("backtrack-run", "RollbackFailed");
                        },
                        e -> e != null);

        // Then the dry run's counts were what the backtrack did, and the rollback put the live table back
        assertThat(diff.get("create").asLong())
                .isEqualTo(run.get("itemsWritten").asLong()
                        - run.get("itemsOverwritten").asLong());
        assertThat(diff.get("overwrite").asLong())
                .isEqualTo(run.get("itemsOverwritten").asLong());
        assertThat(diff.get("equal").asLong())
                .isEqualTo(run.get("itemsUnchanged").asLong());
        assertThat(diff.get("delete").asLong())
                .isEqualTo(run.get("itemsDeleted").asLong())
                .isPositive();
        assertThat(run.get("verification").get("status").asString()).isEqualTo("PASSED");
        assertThat(rolledBack.get("type").asString()).as(rolledBack.toString()).isEqualTo("RollbackCompleted");
        assertThat(ItemDigests.ofTable(on.stack().dynalite.client(), "backtrack-undo", List.of("pk", "sk")))
                .isEqualTo(live);
    }

    private static JsonNode completed(String restoreId) {
        JsonNode end = await().atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(300))
                .until(
                        () -> {
                            for (String type : List.of("RestoreCompleted", "RestoreFailed", "RestoreRejected")) {
                                JsonNode e = on.status().last(restoreId, type);
                                if (e != null) {
                                    return e;
                                }
                            }
                            return null;
                        },
                        e -> e != null);
        assertThat(end.get("type").asString()).as(restoreId + ": " + end).isEqualTo("RestoreCompleted");
        return end;
    }
}
