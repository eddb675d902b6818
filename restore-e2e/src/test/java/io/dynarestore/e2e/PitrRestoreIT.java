package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/** Point-in-time restores through the whole system, against a brute-force replay of each history. */
class PitrRestoreIT {

    static final long SECOND = HistoryFixtures.SECOND;
    static RestoreStack stack;
    static TopicRecorder status;
    static KafkaProducer<String, String> producer;
    static VaultCatalog catalog;
    /** Base of every history: noon UTC of the latest past noon, so that a history never spans midnight. */
    static final long T0 = noon() * SECOND + 250_000;

    static long noon() {
        Instant today =
                Instant.now().truncatedTo(java.time.temporal.ChronoUnit.DAYS).plus(Duration.ofHours(12));
        return (today.isAfter(Instant.now().minusSeconds(600)) ? today.minus(Duration.ofDays(1)) : today)
                .getEpochSecond();
    }

    @BeforeAll
    static void startStack() {
        stack = RestoreStack.infrastructure();
        // a small skip-set limit, so that the histories take both ways: skip set, and phased base-then-delta
        stack.startPlanner("--planner.pitr.skip-keys-limit=30", "--planner.pitr.lines-per-file=17");
        stack.startWriter();
        stack.startApi();
        status = stack.followStatus();
        producer = stack.stringProducer();
        catalog = new VaultCatalog(stack.s3.client(), new VaultLayout(RestoreStack.BUCKET, ""));
    }

    @AfterAll
    static void stopStack() {
        producer.close();
        status.close();
        stack.close();
    }

    record Case(String restoreId, String table, RandomHistory history, Instant pointInTime) {}

    @Test
    void restoresTwoHundredRandomHistoriesToRandomSecondsEqualToABruteForceReplay() throws Exception {
        // Given 200 tables with random histories (puts, overwrites, deletes, re-creates, every type,
        // every key type) recorded as a base backup and exports with gaps, some compacted
        var cases = new ArrayList<Case>();
        for (int i = 0; cases.size() < 200; i++) {
            Random r = new Random(i);
            String table = "hist-" + i;
            RandomItems.Shape shape = HistoryFixtures.shape(r);
            var history = new RandomHistory(i, shape, 5 + r.nextInt(40), 10 + r.nextInt(90), T0, 90 * SECOND);
            HistoryFixtures.writeToVault(stack, table, shape, history, T0, T0 + 95 * SECOND, r);
            var windows = coverage(table).availability().windows();
            if (windows.isEmpty()) {
                continue; // only compacted exports ending inside a second: no whole second is restorable
            }
            // a random second of a random window, or one of its edges
            var w = windows.get(r.nextInt(windows.size()));
            long span = w.end().getEpochSecond() - w.start().getEpochSecond();
            Instant t = switch (r.nextInt(4)) {
                case 0 -> w.start();
                case 1 -> w.end();
                default -> w.start().plusSeconds(span == 0 ? 0 : r.nextLong(span + 1));
            };
            cases.add(new Case("pitr-" + i, table, history, t));
        }

        // When each is restored to its second through restore.requests
        for (Case c : cases) {
            producer.send(new ProducerRecord<>(
                    "restore.requests",
                    c.restoreId(),
                    "{\"restoreId\":\"" + c.restoreId()
                            + "\",\"source\":{\"table\":\"" + c.table() + "\",\"pointInTime\":\"" + c.pointInTime()
                            + "\"},\"destination\":{\"type\":\"NEW_TABLE\",\"tableName\":\"" + c.table() + "-at\"}}"));
        }
        producer.flush();
        await().atMost(Duration.ofMinutes(10))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    for (Case c : cases) {
                        assertThat(status.last(c.restoreId(), "RestoreFailed"))
                                .as(c.restoreId())
                                .isNull();
                        assertThat(status.last(c.restoreId(), "RestoreRejected"))
                                .as(c.restoreId())
                                .isNull();
                    }
                    assertThat(cases)
                            .allSatisfy(c -> assertThat(status.last(c.restoreId(), "RestoreCompleted"))
                                    .isNotNull());
                });

        // Then every restored table equals the brute-force image of its history at its second
        int phased = 0;
        for (Case c : cases) {
            var expected = c.history().imageBefore(micros(c.pointInTime()) + SECOND);
            var actual = ItemDigests.ofTable(
                    stack.dynalite.client(), c.table() + "-at", c.history().keyAttributes());
            assertThat(actual).as("%s at %s", c.table(), c.pointInTime()).isEqualTo(HistoryFixtures.digests(expected));
            JsonNode completed = status.last(c.restoreId(), "RestoreCompleted");
            assertThat(completed.get("itemsWritten").asLong())
                    .as(c.restoreId())
                    .isGreaterThanOrEqualTo(expected.size());
            if (status.last(c.restoreId(), "RestorePlanned").get("phased").asBoolean()) {
                phased++;
            }
        }
        assertThat(phased).as("restores that wrote the base before the delta").isBetween(10, cases.size() - 10);
    }

    @Test
    void rejectsAPointInAGapNamingTheNearestRestorableSeconds() throws Exception {
        // Given a history whose exports cover [T0, T0+30s) and [T0+60s, T0+90s) from one base
        String table = "gappy";
        var shape = new RandomItems.Shape("id", "S", null, null, Map.of());
        var history = new RandomHistory(7, shape, 20, 50, T0, 90 * SECOND);
        var layout = new VaultLayout(RestoreStack.BUCKET, "");
        var backup = new io.dynarestore.core.vault.BackupWriter(
                stack.s3.client(), layout, RestoreStack.ACCOUNT, RestoreStack.REGION, table, "base", 10);
        try (var part = backup.openPart()) {
            history.base().forEach(part::write);
        }
        backup.finish(HistoryFixtures.description(table, shape), List.of(), null, HistoryFixtures.instant(T0), null);
        HistoryFixtures.writeExport(stack, layout, table, "a", history, T0, T0 + 30 * SECOND, false);
        HistoryFixtures.writeExport(stack, layout, table, "b", history, T0 + 60 * SECOND, T0 + 90 * SECOND, false);
        Instant lastGood = Instant.ofEpochSecond((T0 + 30 * SECOND) / SECOND - 1);

        // When a second in the gap is asked for, on REST and on Kafka
        Instant inGap = lastGood.plusSeconds(10);
        var response = Http.post(
                stack.apiUri("/restores"),
                "{\"source\":{\"table\":\"gappy\",\"pointInTime\":\"" + inGap
                        + "\"},\"destination\":{\"type\":\"NEW_TABLE\"}}");
        producer.send(new ProducerRecord<>(
                "restore.requests",
                "gap-1",
                "{\"restoreId\":\"gap-1\",\"source\":{\"table\":" + "\"gappy\",\"pointInTime\":\"" + inGap
                        + "\"},\"destination\":{\"type\":\"NEW_TABLE\"}}"));

        // Then it is refused with the restorable seconds around the gap
        assertThat(response.status()).as(response.body()).isEqualTo(422);
        assertThat(response.json().get("code").asString()).isEqualTo("POINT_NOT_RESTORABLE");
        assertThat(response.json().get("detail").asString()).contains(lastGood.toString());
        JsonNode rejected = await().atMost(Duration.ofSeconds(30))
                .until(() -> status.last("gap-1", "RestoreRejected"), e -> e != null);
        assertThat(rejected.get("code").asString()).isEqualTo("POINT_NOT_RESTORABLE");
        assertThat(rejected.get("reason").asString()).contains(lastGood.toString());

        // and the pitr windows show the window and its end, and the calendar the partial day
        var windows = Http.get(stack.apiUri("/tables/gappy/pitr-windows")).json();
        assertThat(windows.get("windows")).hasSize(1);
        assertThat(windows.get("windows").get(0).get("end").asString()).isEqualTo(lastGood.toString());
        assertThat(windows.get("latestRestorable").asString()).isEqualTo(lastGood.toString());
        assertThat(windows.get("latestBackup").get("id").asString()).isEqualTo("base");
        var day = lastGood.atZone(java.time.ZoneOffset.UTC).toLocalDate();
        var calendar = Http.get(stack.apiUri(
                        "/tables/gappy/calendar?month=" + day.toString().substring(0, 7)))
                .json();
        var entry = calendar.get("days").get(day.getDayOfMonth() - 1);
        assertThat(entry.get("date").asString()).isEqualTo(day.toString());
        assertThat(entry.get("pitr").asString()).isEqualTo("PARTIAL");
        assertThat(entry.get("backups").get(0).get("id").asString()).isEqualTo("base");
        assertThat(entry.get("restorable").get(0).get("end").asString()).isEqualTo(lastGood.toString());
        var otherDay = calendar.get("days").get(day.getDayOfMonth() == 1 ? 1 : 0);
        assertThat(otherDay.get("pitr").asString()).isEqualTo("NONE");
        assertThat(otherDay.get("backups")).isEmpty();

        // while the last second of the window and 'latest' restore
        for (String point : List.of(lastGood.toString(), "latest")) {
            var ok = Http.post(
                    stack.apiUri("/restores"),
                    "{\"source\":{\"table\":\"gappy\",\"pointInTime\":\""
                            + point + "\"},\"destination\":{\"type\":\"NEW_TABLE\",\"tableName\":\"gappy-"
                            + point.length()
                            + "\"}}");
            assertThat(ok.status()).as(ok.body()).isEqualTo(202);
            String id = ok.json().get("restoreId").asString();
            await().atMost(Duration.ofSeconds(60)).until(() -> status.last(id, "RestoreCompleted") != null);
            assertThat(ItemDigests.ofTable(stack.dynalite.client(), "gappy-" + point.length(), List.of("id")))
                    .isEqualTo(HistoryFixtures.digests(history.imageBefore(micros(lastGood) + SECOND)));
            assertThat(status.last(id, "RestoreAccepted").get("pointInTime").asString())
                    .isEqualTo(lastGood.toString());
        }
    }

    @Test
    void restoresIntoAnExistingEmptyTableAndRefusesOneThatIsNotEmptyOrKeyedDifferently() throws Exception {
        // Given a history, and three existing tables: empty with the same key, non-empty, keyed otherwise
        var shape = new RandomItems.Shape("id", "S", "at", "N", Map.of());
        var history = new RandomHistory(11, shape, 30, 60, T0, 60 * SECOND);
        HistoryFixtures.writeToVault(stack, "source-x", shape, history, T0, T0 + 65 * SECOND, new Random(11));
        var dynamo = stack.dynalite.client();
        for (String name : List.of("empty-x", "full-x")) {
            Dynalite.createTable(
                    dynamo,
                    name,
                    shape,
                    b -> b.provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L)));
        }
        dynamo.putItem(b ->
                b.tableName("full-x").item(Map.of("id", AttributeValue.fromS("x"), "at", AttributeValue.fromN("1"))));
        dynamo.createTable(b -> b.tableName("other-x")
                .attributeDefinitions(a -> a.attributeName("id").attributeType("N"))
                .keySchema(k -> k.attributeName("id").keyType("HASH"))
                .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L)));
        Instant t = coverage("source-x").availability().latestRestorable();

        // When it is restored into each
        String body = "{\"source\":{\"table\":\"source-x\",\"pointInTime\":\"" + t
                + "\"},\"destination\":{\"type\":\"EXISTING_TABLE\",\"tableName\":\"%s\"}}";
        var intoEmpty = Http.post(stack.apiUri("/restores"), body.formatted("empty-x"));
        var intoFull = Http.post(stack.apiUri("/restores"), body.formatted("full-x"));
        var intoOther = Http.post(stack.apiUri("/restores"), body.formatted("other-x"));
        var intoMissing = Http.post(stack.apiUri("/restores"), body.formatted("missing-x"));

        // Then the empty one receives the image; the others are refused with what to do
        assertThat(intoEmpty.status()).as(intoEmpty.body()).isEqualTo(202);
        String id = intoEmpty.json().get("restoreId").asString();
        await().atMost(Duration.ofSeconds(60)).until(() -> status.last(id, "RestoreCompleted") != null);
        assertThat(ItemDigests.ofTable(dynamo, "empty-x", history.keyAttributes()))
                .isEqualTo(HistoryFixtures.digests(history.imageBefore(micros(t) + SECOND)));
        assertThat(status.last(id, "DestinationReady").get("created").asBoolean())
                .isFalse();
        assertThat(intoFull.status()).isEqualTo(409);
        assertThat(intoFull.json().get("code").asString()).isEqualTo("TABLE_NOT_EMPTY");
        assertThat(intoOther.status()).isEqualTo(422);
        assertThat(intoOther.json().get("code").asString()).isEqualTo("KEY_SCHEMA_MISMATCH");
        assertThat(intoOther.json().get("detail").asString())
                .contains("id (N, HASH)")
                .contains("id (S, HASH) + at (N, RANGE)");
        assertThat(intoMissing.status()).isEqualTo(422);
        assertThat(intoMissing.json().get("code").asString()).isEqualTo("TABLE_NOT_FOUND");
    }

    static PitrCoverage coverage(String table) {
        return PitrCoverage.of(
                catalog.listBackups(RestoreStack.ACCOUNT, RestoreStack.REGION, table),
                catalog.listExports(RestoreStack.ACCOUNT, RestoreStack.REGION, table),
                Instant.now());
    }

    static long micros(Instant t) {
        return t.getEpochSecond() * SECOND + t.getNano() / 1_000;
    }
}
