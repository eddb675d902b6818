package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.codec.DynamoJson;
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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/**
 * Dry runs, the undo journal with rollback, and the verification every restore ends with, on
 * random histories: a dry run's counts are what the restore then does, a rollback puts a table
 * back byte for byte, and a segment that lost an item fails the restore naming the segment.
 */
class UndoableRestoresIT {

    static final long SECOND = HistoryFixtures.SECOND;
    static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();
    static final long T0 = PitrRestoreIT.noon() * SECOND + 500_000;
    /** The writer of this stack drops one write of segment 0 of this restore (a fault decorating it). */
    static final String CORRUPTED = SharedStack.CORRUPTED;
    /** Every record (every partition key of the simple shape begins with p). */
    static final String ALL = "{\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":{\"condition\":"
            + "\"BeginsWith\",\"values\":[\"p\"]}}]}";

    @RegisterExtension
    static final StackSession on = new StackSession();

    /** A table with a history in the vault (base at T0, every write over 90 s exported) and its live state at the end. */
    static RandomHistory table(String name, long seed) {
        var history = new RandomHistory(seed, SHAPE, 40 + (int) (seed % 40), 100 + (int) (seed % 120), T0, 90 * SECOND);
        HistoryFixtures.liveTable(on.stack(), name, history, SHAPE, T0, 11 + (int) (seed % 7));
        return history;
    }

    /** Every item of a table exactly as DynamoDB returns it (attribute values unnormalized), by key. */
    static TreeMap<String, String> raw(String table) {
        var items = new TreeMap<String, String>();
        for (var page : on.stack()
                .dynalite
                .client()
                .scanPaginator(b -> b.tableName(table).consistentRead(true))) {
            for (var item : page.items()) {
                items.put(ItemDigests.key(item, List.of("pk", "sk")), DynamoJson.toJson(new TreeMap<>(item)));
            }
        }
        return items;
    }

    static String submit(String restoreId, String source, String scope, String destination, boolean dryRun) {
        String body = "{\"restoreId\":\"" + restoreId + "\",\"source\":" + source
                + (scope == null ? "" : ",\"scope\":" + scope) + ",\"destination\":" + destination
                + (dryRun ? ",\"dryRun\":true" : "") + "}";
        on.request(restoreId, body);
        return restoreId;
    }

    static JsonNode awaitEnd(String restoreId) {
        on.flush();
        return await().atMost(Duration.ofMinutes(6))
                .pollInterval(Duration.ofMillis(300))
                .until(
                        () -> {
                            for (String type : List.of(
                                    "RestoreCompleted", "RestoreFailed", "RestoreRejected", "RestoreCancelled")) {
                                JsonNode e = on.status().last(restoreId, type);
                                if (e != null) {
                                    return e;
                                }
                            }
                            return null;
                        },
                        e -> e != null);
    }

    static JsonNode completed(String restoreId) {
        JsonNode end = awaitEnd(restoreId);
        assertThat(end.get("type").asString()).as(restoreId + ": " + end).isEqualTo("RestoreCompleted");
        return end;
    }

    static JsonNode rollBack(String restoreId) throws Exception {
        var response = Http.post(on.stack().apiUri("/restores/" + restoreId + "/rollback"), "{\"reason\":\"test\"}");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        return awaitRollback(restoreId);
    }

    static JsonNode awaitRollback(String restoreId) {
        JsonNode end = await().atMost(Duration.ofMinutes(6))
                .pollInterval(Duration.ofMillis(300))
                .until(
                        () -> {
                            JsonNode done = on.status().last(restoreId, "RollbackCompleted");
                            return done != null ? done : on.status().last(restoreId, "RollbackFailed");
                        },
                        e -> e != null);
        assertThat(end.get("type").asString()).as(end.toString()).isEqualTo("RollbackCompleted");
        return end;
    }

    static String scope(Random r) {
        var filter = HistoryFixtures.randomFilter(r);
        String json = Json.toString(filter).replace("\"type\":\"RECORDS\",", "");
        return "{\"type\":\"RECORDS\"," + json.substring(1);
    }

    /** A restore of a random kind into the live table, or into another table holding other items and versions. */
    record Planned(String restoreId, String table, String source, String scope, String destination) {}

    static Planned randomRestore(String name, long seed) {
        Random r = new Random(seed);
        var history = table(name, seed);
        Instant t = Instant.ofEpochSecond(T0 / SECOND + 1 + r.nextInt(88));
        String source = r.nextInt(3) == 0
                ? "{\"table\":\"" + name + "\",\"backupId\":\"base\"}"
                : "{\"table\":\"" + name + "\",\"pointInTime\":\"" + t + "\"}";
        String scope = r.nextBoolean() ? scope(r) : null;
        if (r.nextInt(3) == 0) {
            // (a whole-table restore needs an empty existing table, so this one restores records)
            scope = scope == null ? ALL : scope;
            // an existing table holding other items, and other versions of some of the source's keys
            String existing = name + "-existing";
            HistoryFixtures.createTable(on.stack(), existing);
            var others = new ArrayList<Map<String, AttributeValue>>();
            var items = new RandomItems(5_000 + seed, SHAPE);
            for (int i = 0; i < 50; i++) {
                others.add(items.item(i, 2));
            }
            history.imageBefore(Long.MAX_VALUE).values().stream()
                    .filter(x -> r.nextInt(3) == 0)
                    .forEach(others::add);
            HistoryFixtures.put(on.stack(), existing, others);
            return new Planned(
                    name + "-into-existing",
                    existing,
                    source,
                    scope,
                    "{\"type\":\"EXISTING_TABLE\",\"tableName\":\"" + existing + "\"}");
        }
        return new Planned(name + "-in-place", name, source, scope, "{\"type\":\"IN_PLACE\"}");
    }

    @Test
    void aDryRunOfRandomHistoriesCountsWhatTheRestoreThenDoesAndWritesNothing() {
        // Given random histories and a restore of a random kind for each (in place or into an existing
        // table; whole table or records; at the backup or at a second)
        var planned = new ArrayList<Planned>();
        for (int seed = 0; seed < 10; seed++) {
            planned.add(randomRestore("dry-" + seed, seed));
        }
        var before = new TreeMap<String, TreeMap<String, String>>();
        planned.forEach(p -> before.put(p.table(), raw(p.table())));

        // When each runs as a dry run
        planned.forEach(p -> submit(p.restoreId() + "-dry", p.source(), p.scope(), p.destination(), true));
        var diffs = new TreeMap<String, JsonNode>();
        planned.forEach(p -> diffs.put(p.restoreId(), completed(p.restoreId() + "-dry")));

        // Then no table changed at all
        for (Planned p : planned) {
            assertThat(raw(p.table())).as(p.restoreId()).isEqualTo(before.get(p.table()));
        }

        // and when each then runs for real
        planned.forEach(p -> submit(p.restoreId(), p.source(), p.scope(), p.destination(), false));
        long changes = 0;
        for (Planned p : planned) {
            JsonNode real = completed(p.restoreId());
            JsonNode dry = diffs.get(p.restoreId());
            JsonNode diff = dry.get("diff");
            // the dry run's counts are what the restore did
            assertThat(dry.get("dryRun").asBoolean()).isTrue();
            assertThat(dry.get("itemsWritten").asLong()).isZero();
            assertThat(diff.get("create").asLong())
                    .as(p.restoreId() + " creates")
                    .isEqualTo(real.get("itemsWritten").asLong()
                            - real.get("itemsOverwritten").asLong());
            assertThat(diff.get("overwrite").asLong())
                    .as(p.restoreId() + " overwrites")
                    .isEqualTo(real.get("itemsOverwritten").asLong());
            assertThat(diff.get("equal").asLong())
                    .as(p.restoreId() + " equal")
                    .isEqualTo(real.get("itemsUnchanged").asLong());
            assertThat(diff.get("delete").asLong())
                    .as(p.restoreId() + " deletes")
                    .isEqualTo(real.get("itemsDeleted").asLong());
            changes +=
                    real.get("itemsWritten").asLong() + real.get("itemsDeleted").asLong();
            // with samples of each kind it found, an overwrite naming the attributes that differ
            for (JsonNode sample : diff.get("samples")) {
                assertThat(sample.get("key").asString()).contains("\"pk\"");
                if (sample.get("change").asString().equals("OVERWRITE")) {
                    assertThat(sample.get("changedAttributes")).isNotEmpty();
                }
            }
            assertThat(dry.get("verification").get("status").asString()).isEqualTo("SKIPPED");
        }
        assertThat(changes).as("the histories changed something").isPositive();
    }

    @Test
    void rollingBackInPlaceRestoresPutsTheTableBackByteForByteIncludingDeletedItems() throws Exception {
        // Given live tables whose state went on after the restored second T
        var cases = new ArrayList<String[]>();
        for (int seed = 30; seed < 34; seed++) {
            String name = "undo-" + seed;
            table(name, seed);
            Instant t = Instant.ofEpochSecond(T0 / SECOND + 20 + seed);
            String source = "{\"table\":\"" + name + "\",\"pointInTime\":\"" + t + "\"}";
            // a record restore at T (even seeds) and a whole-table restore at T, which deletes what came later
            String scope = seed % 2 == 0 ? scope(new Random(seed)) : null;
            cases.add(new String[] {name, source, scope});
        }
        var before = new TreeMap<String, TreeMap<String, String>>();
        cases.forEach(c -> before.put(c[0], raw(c[0])));

        // When each is restored in place at T
        cases.forEach(c -> submit(c[0] + "-r", c[1], c[2], "{\"type\":\"IN_PLACE\"}", false));
        long deleted = 0;
        long changed = 0;
        for (String[] c : cases) {
            JsonNode done = completed(c[0] + "-r");
            deleted += done.get("itemsDeleted").asLong();
            changed +=
                    done.get("itemsWritten").asLong() + done.get("itemsDeleted").asLong();
            assertThat(done.get("verification").get("status").asString()).isEqualTo("PASSED");
        }
        assertThat(deleted)
                .as("whole-table restores deleted items created after T")
                .isPositive();
        assertThat(changed).isPositive();

        // and then rolled back, by REST and by a Kafka command
        long restored = 0;
        for (String[] c : cases) {
            if (c[0].endsWith("1")) {
                on.command(
                        c[0] + "-r",
                        "{\"type\":\"RollbackRequested\",\"restoreId\":\"" + c[0] + "-r\",\"eventId\":\"rb-" + c[0]
                                + "\",\"schemaVersion\":1,\"occurredAt\":\"" + Instant.now() + "\"}");
                JsonNode end = awaitRollback(c[0] + "-r");
                restored += end.get("itemsRestored").asLong();
            } else {
                JsonNode end = rollBack(c[0] + "-r");
                restored += end.get("itemsRestored").asLong()
                        + end.get("itemsDeleted").asLong();
            }
        }

        // Then every table is exactly as it was before its restore, items the restore deleted included
        for (String[] c : cases) {
            assertThat(raw(c[0])).as(c[0]).isEqualTo(before.get(c[0]));
        }
        assertThat(restored).isPositive();
        // and the task shows the rollback; a second one is refused
        var task = Http.get(on.stack().apiUri("/restores/undo-30-r")).json();
        assertThat(task.get("rollback").get("state").asString()).isEqualTo("COMPLETED");
        var again = Http.post(on.stack().apiUri("/restores/undo-30-r/rollback"), "");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("detail").asString()).contains("rolled back already");
    }

    @Test
    void aSegmentThatLostAnItemFailsTheVerificationNamingItAndTheFailedRestoreRollsBack() throws Exception {
        // Given a table and another holding other versions of its items
        table("corrupt-src", 61);
        HistoryFixtures.createTable(on.stack(), "corrupt-dst");
        var items = new RandomItems(61_000, SHAPE);
        var others = new ArrayList<Map<String, AttributeValue>>();
        for (int i = 0; i < 40; i++) {
            others.add(items.item(i, 2));
        }
        HistoryFixtures.put(on.stack(), "corrupt-dst", others);
        var before = raw("corrupt-dst");

        // When a restore into it loses one write of segment 0 (the fault in the writer)
        submit(
                CORRUPTED,
                "{\"table\":\"corrupt-src\",\"backupId\":\"base\"}",
                ALL,
                "{\"type\":\"EXISTING_TABLE\",\"tableName\":\"corrupt-dst\"}",
                false);
        JsonNode end = awaitEnd(CORRUPTED);

        // Then the restore fails its verification, naming the segment and what does not add up
        assertThat(end.get("type").asString()).as(end.toString()).isEqualTo("RestoreFailed");
        assertThat(end.get("reason").asString()).contains("verification").contains("segment 0");
        JsonNode verification = end.get("verification");
        assertThat(verification.get("status").asString()).isEqualTo("FAILED");
        assertThat(verification.get("mismatches").toString())
                .contains("segment 0: 1 of its")
                .contains("checksum");
        var task = Http.get(on.stack().apiUri("/restores/" + CORRUPTED)).json();
        assertThat(task.get("state").asString()).isEqualTo("FAILED");
        assertThat(task.get("verification").get("status").asString()).isEqualTo("FAILED");

        // and rolling the failed restore back leaves the table as it was
        rollBack(CORRUPTED);
        assertThat(raw("corrupt-dst")).isEqualTo(before);
    }

    @Test
    void aRestoreIntoANewTableEndsWithAPassedVerificationThatReadItemsBack() throws Exception {
        var history = table("verified-src", 71);
        String id = submit(
                "verified-new",
                "{\"table\":\"verified-src\",\"backupId\":\"base\"}",
                null,
                "{\"type\":\"NEW_TABLE\",\"tableName\":\"verified-new\"}",
                false);
        JsonNode verification = completed(id).get("verification");
        assertThat(verification.get("status").asString())
                .as(verification.toString())
                .isEqualTo("PASSED");
        assertThat(verification.get("linesChecked").asLong())
                .isEqualTo(history.base().size());
        assertThat(verification.get("readBack").asInt())
                .isPositive()
                .isEqualTo(verification.get("readBackMatched").asInt());
        assertThat(verification.get("checksum").asString()).hasSize(16);
        assertThat(Http.get(on.stack().apiUri("/restores/" + id))
                        .json()
                        .get("verification")
                        .get("status")
                        .asString())
                .isEqualTo("PASSED");
    }

    @Test
    void refusesDryRunsAndRollbacksThatCannotBeWithTheReasonAndTheFix() throws Exception {
        table("refused-src", 81);
        // a dry run of a new table: 400 naming dryRun
        var dry = Http.post(
                on.stack().apiUri("/restores"),
                "{\"source\":{\"table\":\"refused-src\",\"backupId\":\"base\"},"
                        + "\"destination\":{\"type\":\"NEW_TABLE\"},\"dryRun\":true}");
        assertThat(dry.status()).as(dry.body()).isEqualTo(400);
        assertThat(dry.json().get("errors").findValuesAsString("field")).contains("/dryRun");
        assertThat(dry.json().get("detail").asString()).contains("EXISTING_TABLE or IN_PLACE");

        // a rollback of an unknown restore: 404; of a new table: 409 saying to delete the table
        assertThat(Http.post(on.stack().apiUri("/restores/nope/rollback"), "").status())
                .isEqualTo(404);
        String id = submit(
                "refused-new",
                "{\"table\":\"refused-src\",\"backupId\":\"base\"}",
                null,
                "{\"type\":\"NEW_TABLE\",\"tableName\":\"refused-new\"}",
                false);
        completed(id);
        var rollback = Http.post(on.stack().apiUri("/restores/refused-new/rollback"), "");
        assertThat(rollback.status()).as(rollback.body()).isEqualTo(409);
        assertThat(rollback.json().get("detail").asString()).contains("delete the table");
    }
}
