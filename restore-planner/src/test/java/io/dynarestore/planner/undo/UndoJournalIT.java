package io.dynarestore.planner.undo;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.core.undo.UndoJournal;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The undo journal against S3Proxy and dynalite: random changes journaled as writers journal
 * them (each key's image before each batch), in segments and passes, are undone exactly, and a
 * rollback run again changes nothing.
 */
class UndoJournalIT {

    static final List<String> KEYS = List.of("pk", "sk");
    static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();
    static Dynalite dynalite;
    static S3Server s3;

    @BeforeAll
    static void start() {
        dynalite = Dynalite.start();
        s3 = S3Server.start("vault");
    }

    @AfterAll
    static void stop() {
        s3.close();
        dynalite.close();
    }

    static void createTable(String name) {
        Dynalite.createTable(dynalite.client(), name, SHAPE, b -> b.billingMode("PAY_PER_REQUEST"));
    }

    static TreeMap<String, String> raw(String table) {
        var items = new TreeMap<String, String>();
        for (var page : dynalite.client().scanPaginator(b -> b.tableName(table).consistentRead(true))) {
            for (var item : page.items()) {
                items.put(DynamoJson.toJson(key(item)), DynamoJson.toJson(new TreeMap<>(item)));
            }
        }
        return items;
    }

    static Map<String, AttributeValue> key(Map<String, AttributeValue> item) {
        var key = new java.util.LinkedHashMap<String, AttributeValue>();
        KEYS.forEach(k -> key.put(k, item.get(k)));
        return key;
    }

    /** Applies one batch as a writer does: journal each key's current image, then put or delete. */
    static void change(
            String table,
            String prefix,
            int segment,
            long line,
            List<Map<String, AttributeValue>> puts,
            List<Map<String, AttributeValue>> deletes) {
        if (puts.isEmpty() && deletes.isEmpty()) {
            return;
        }
        DynamoDbClient dynamo = dynalite.client();
        var entries = new ArrayList<UndoJournal.Entry>();
        var writes = new ArrayList<WriteRequest>();
        for (var item : puts) {
            entries.add(new UndoJournal.Entry(key(item), current(table, key(item))));
            writes.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(item).build())
                    .build());
        }
        for (var k : deletes) {
            entries.add(new UndoJournal.Entry(k, current(table, k)));
            writes.add(WriteRequest.builder().deleteRequest(d -> d.key(k)).build());
        }
        UndoJournal.append(s3.client(), "vault", prefix, segment, line, "w/1", System.currentTimeMillis(), entries);
        dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, writes)));
    }

    static Map<String, AttributeValue> current(String table, Map<String, AttributeValue> key) {
        var item = dynalite.client()
                .getItem(b -> b.tableName(table).key(key).consistentRead(true))
                .item();
        return item == null || item.isEmpty() ? null : item;
    }

    static Stream<Integer> seeds() {
        return IntStream.range(0, 8).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void rollingBackRandomJournaledChangesPutsTheTableBackExactlyAndAgainKeepsItSo(int seed) throws Exception {
        // Given a table holding random items
        Random r = new Random(seed);
        String table = "undo-" + seed;
        createTable(table);
        var items = new RandomItems(seed, SHAPE);
        var first = new ArrayList<WriteRequest>();
        for (int i = 0; i < 60; i++) {
            if (r.nextBoolean()) {
                first.add(WriteRequest.builder()
                        .putRequest(PutRequest.builder().item(items.item(i, 1)).build())
                        .build());
            }
            if (first.size() == 25) {
                var copy = List.copyOf(first);
                dynalite.client().batchWriteItem(b -> b.requestItems(Map.of(table, copy)));
                first.clear();
            }
        }
        if (!first.isEmpty()) {
            dynalite.client().batchWriteItem(b -> b.requestItems(Map.of(table, first)));
        }
        var before = raw(table);

        // When a restore changes it in 3 segments of batches (creates, overwrites, deletes), each key
        // once, and in odd seeds a later pass writes some of the same keys again (as the delta of a
        // phased restore does)
        String prefix = UndoJournal.prefix("r-" + seed);
        int passes = 1 + seed % 2;
        for (int pass = 0; pass < passes; pass++) {
            var versions = new RandomItems(100 + seed * 10 + pass, SHAPE);
            for (int segment = 0; segment < 3; segment++) {
                int s = pass * 3 + segment;
                var used = new java.util.HashSet<Integer>();
                for (int batch = 0; batch < 1 + r.nextInt(3); batch++) {
                    var puts = new HashMap<String, Map<String, AttributeValue>>();
                    var deletes = new HashMap<String, Map<String, AttributeValue>>();
                    for (int i = 0; i < 1 + r.nextInt(12); i++) {
                        int index = segment * 20 + r.nextInt(20);
                        if (!used.add(index)) {
                            continue; // a segment holds a key once
                        }
                        var item = versions.item(index, 1 + r.nextInt(3));
                        String k = DynamoJson.toJson(key(item));
                        if (r.nextInt(4) == 0) {
                            deletes.putIfAbsent(k, key(item));
                        } else if (!deletes.containsKey(k)) {
                            puts.put(k, item);
                        }
                    }
                    deletes.keySet().removeAll(puts.keySet());
                    change(
                            table,
                            prefix,
                            s,
                            batch * 100L + 10,
                            List.copyOf(puts.values()),
                            List.copyOf(deletes.values()));
                    Thread.sleep(2); // journal names order batches by their time
                }
            }
        }
        assertThat(raw(table)).isNotEqualTo(before);

        // and it is rolled back
        var rollback = new Rollback(
                s3.client(),
                dynalite.client(),
                table,
                KEYS,
                10_000,
                new Backoff(5, Duration.ofMillis(10), Duration.ofMillis(100)));
        Rollback.Result result = rollback.run("vault", prefix);

        // Then the table is exactly as before
        assertThat(raw(table)).isEqualTo(before);
        assertThat(result.restored() + result.deleted()).isPositive();

        // and a second rollback (as after a crash) leaves it so; where each key was journaled once,
        // it only reads
        Rollback.Result again = new Rollback(
                        s3.client(),
                        dynalite.client(),
                        table,
                        KEYS,
                        10_000,
                        new Backoff(5, Duration.ofMillis(10), Duration.ofMillis(100)))
                .run("vault", prefix);
        assertThat(raw(table)).isEqualTo(before);
        if (passes == 1) {
            assertThat(again.restored() + again.deleted()).isZero();
            assertThat(again.unchanged()).isEqualTo(result.entries());
        }
    }

    @Test
    void tellsASegmentsNextOwnerWhichKeysWereChangedAfterItsCheckpoint() {
        // Given a segment whose owner journaled batches ending at lines 25, 50 and 75
        String prefix = UndoJournal.prefix("owners");
        var items = new RandomItems(7, SHAPE);
        for (int b = 1; b <= 3; b++) {
            var entries = new ArrayList<UndoJournal.Entry>();
            for (int i = (b - 1) * 25; i < b * 25; i++) {
                var item = items.item(i, 1);
                entries.add(new UndoJournal.Entry(key(item), i % 2 == 0 ? item : null));
            }
            UndoJournal.append(s3.client(), "vault", prefix, 4, b * 25L, "writer-a", 1_000 + b, entries);
        }

        // When its next owner resumes after line 50
        Map<KeyHash, Boolean> changed = UndoJournal.changedAfter(s3.client(), "vault", prefix, 4, 50, KEYS, 1_000);

        // Then it learns the 25 keys of the last batch, and which of them existed before
        assertThat(changed).hasSize(25);
        assertThat(changed.get(KeyHash.of(items.item(50, 1), KEYS))).isTrue();
        assertThat(changed.get(KeyHash.of(items.item(51, 1), KEYS))).isFalse();
        assertThat(changed).doesNotContainKey(KeyHash.of(items.item(49, 1), KEYS));
        // and from the start it would learn all 75; beyond its limit, none
        assertThat(UndoJournal.changedAfter(s3.client(), "vault", prefix, 4, 0, KEYS, 1_000))
                .hasSize(75);
        assertThat(UndoJournal.changedAfter(s3.client(), "vault", prefix, 4, 0, KEYS, 30))
                .isNull();
        assertThat(UndoJournal.segments(s3.client(), "vault", prefix)).containsExactly(4);
    }
}
