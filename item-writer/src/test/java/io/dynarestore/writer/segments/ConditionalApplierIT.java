package io.dynarestore.writer.segments;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.codec.ItemDigest;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.writer.WriterFixtures;
import io.dynarestore.writer.capacity.WriteBudgets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;

/**
 * A strict undo's writes against dynalite: each revert is made only where the key still holds the
 * image its line expects; every other key is a conflict, left as it is and counted, including one
 * written between the writer's read and its write.
 */
class ConditionalApplierIT {

    static final List<String> KEYS = List.of("pk", "sk");
    static Dynalite dynalite;
    static AwsClients aws;
    static WriteBudgets budgets;
    static final Outages OUTAGES = new Outages(Duration.ofMillis(200), Duration.ofSeconds(30));
    static final BatchWriter BATCHES =
            new BatchWriter(new Backoff(5, Duration.ofMillis(1), Duration.ofMillis(20)), OUTAGES);

    @BeforeAll
    static void start() {
        dynalite = Dynalite.start();
        aws = WriterFixtures.aws(dynalite.endpoint());
        budgets = WriterFixtures.liftedBudgets(aws);
    }

    @AfterAll
    static void stop() {
        aws.close();
        dynalite.close();
    }

    /** What the table holds for one key when the undo writes, against what its line expects. */
    enum Case {
        HOLDS_EXPECTED,
        HOLDS_ANOTHER,
        DELETED_SINCE,
        CREATED_SINCE,
        ABSENT_AS_EXPECTED,
        HOLDS_TARGET
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void revertsOnlyKeysThatStillHoldTheirExpectedImageAndLeavesEveryOtherAsAConflict(long seed) {
        // Given 200 keys of every value type, each in a random case, and a strict undo's line per key
        String table = "strict-" + seed;
        createTable(table);
        var items = new RandomItems(seed, RandomItems.Shape.simple());
        var r = new Random(seed);
        var ops = new ArrayList<WriteOp>();
        var expectedTable = new HashMap<List<AttributeValue>, Map<String, AttributeValue>>();
        var cases = new HashMap<List<AttributeValue>, String>();
        long conflicts = 0;
        long conflictDigests = 0;
        for (int i = 0; i < 200; i++) {
            Case c = Case.values()[r.nextInt(Case.values().length)];
            boolean deletes = r.nextInt(4) == 0 && c != Case.HOLDS_TARGET;
            var expected = c == Case.CREATED_SINCE || c == Case.ABSENT_AS_EXPECTED ? null : items.item(i, 0);
            var target = deletes ? null : items.item(i, 1);
            var held = switch (c) {
                case HOLDS_EXPECTED -> expected;
                case HOLDS_ANOTHER, CREATED_SINCE -> items.item(i, 2);
                case DELETED_SINCE, ABSENT_AS_EXPECTED -> null;
                case HOLDS_TARGET -> target;
            };
            if (held != null) {
                dynalite.client().putItem(b -> b.tableName(table).item(held));
            }
            var op = op(items.item(i, 0), target).expecting(expected);
            cases.put(op.key(), c + (deletes ? " (delete)" : ""));
            ops.add(op);
            boolean conflict = c == Case.HOLDS_ANOTHER || c == Case.CREATED_SINCE || c == Case.DELETED_SINCE;
            boolean settled = c == Case.HOLDS_TARGET || deletes && c == Case.ABSENT_AS_EXPECTED;
            if (conflict && !(deletes && held == null)) {
                conflicts++;
                conflictDigests += op.digest();
            }
            var after = conflict || settled ? held : target;
            if (after != null) {
                expectedTable.put(op.key(), after);
            }
        }

        // When the writer applies them in batches of 25, reading each batch first
        var tally = apply(table, ops, d -> d);

        // Then the table holds each reverted key's target, every conflicting key as it was found, and
        // the counts and checksums account for every line
        var wrong = new java.util.TreeMap<String, Long>();
        for (var op : ops) {
            var now = dynalite.client()
                    .getItem(b -> b.tableName(table).key(op.keys()).consistentRead(true));
            var held = now.hasItem() && !now.item().isEmpty() ? now.item() : null;
            if (!io.dynarestore.core.codec.ItemEquality.same(held, expectedTable.get(op.key()))) {
                wrong.merge(cases.get(op.key()), 1L, Long::sum);
            }
        }
        assertThat(wrong).as("keys not as expected, by case").isEmpty();
        assertThat(tally.conflicts).isEqualTo(conflicts);
        assertThat(tally.counts().accounted()).isEqualTo(ops.size());
        assertThat(tally.appliedChecksum).isEqualTo(tally.sourceChecksum);
        assertThat(tally.sourceChecksum + conflictDigests)
                .isEqualTo(ops.stream().mapToLong(WriteOp::digest).sum());
    }

    @Test
    void reportsAWriteThatLandsBetweenTheReadAndTheRevertAsAConflictAndKeepsIt() {
        // Given a key that holds its expected image when the writer reads it
        String table = "strict-race";
        createTable(table);
        var items = new RandomItems(9, RandomItems.Shape.simple());
        var expected = items.item(1, 0);
        var racing = items.item(1, 2);
        dynalite.client().putItem(b -> b.tableName(table).item(expected));
        var op = op(expected, items.item(1, 1)).expecting(expected);

        // When an application writes it again just before the writer's conditional put
        var tally = apply(
                table,
                List.of(op),
                d -> new RacingClient(
                        d,
                        () -> dynalite.client().putItem(b -> b.tableName(table).item(racing))));

        // Then the application's write stays, and the revert is a conflict with the image found
        var now = dynalite.client()
                .getItem(b -> b.tableName(table).key(op.keys()).consistentRead(true))
                .item();
        assertThat(ItemDigest.of(now)).isEqualTo(ItemDigest.of(racing));
        assertThat(tally.conflicts).isEqualTo(1);
        assertThat(tally.conflicts().samples()).singleElement().satisfies(s -> {
            assertThat(s.latest()).contains("\"pk\"");
            assertThat(ItemDigest.of(io.dynarestore.core.codec.DynamoJson.fromJson(s.latest())))
                    .isEqualTo(ItemDigest.of(racing));
        });
        assertThat(tally.written).isZero();
    }

    static WriteOp op(Map<String, AttributeValue> keyed, Map<String, AttributeValue> target) {
        var keys = new java.util.LinkedHashMap<String, AttributeValue>();
        KEYS.forEach(k -> keys.put(k, keyed.get(k)));
        return new WriteOp(
                KEYS.stream().map(keyed::get).toList(),
                keys,
                target,
                target == null ? ItemDigest.ofDelete(keys) : ItemDigest.of(target));
    }

    static WriteTally apply(String table, List<WriteOp> ops, java.util.function.UnaryOperator<DynamoDbClient> wrap) {
        var target = new SegmentDispatched.WriteTarget("000000000000", "us-east-1", table, KEYS, List.of("S", "N"));
        var work = SegmentDispatched.of(
                        "strict", 0, 1, SegmentDispatched.Role.DELTA, SegmentWork.FILE, target, null, true, null, true)
                .withConditions();
        var destination = new BatchWriter.Destination(
                wrap.apply(dynalite.client()),
                table,
                budgets.lane(target),
                OUTAGES.table("000000000000", "us-east-1", table),
                () -> false);
        var tally = WriteTally.of(null, work);
        tally.keyNames = KEYS;
        var applier = new DynamoBatchApplier(BATCHES, null);
        for (int from = 0; from < ops.size(); from += 25) {
            var batch = ops.subList(from, Math.min(ops.size(), from + 25));
            batch.forEach(op -> tally.sourceChecksum += op.digest());
            var current = BATCHES.read(
                    destination, KEYS, batch.stream().map(WriteOp::keys).toList(), false);
            applier.apply(destination, work, new ArrayList<>(batch), current, tally);
        }
        return tally;
    }

    static void createTable(String name) {
        WriterFixtures.createTable(dynalite.client(), name);
    }

    /**
     * A client that runs {@code race} once, just before the first conditional write it passes on
     * (the SDK's builder overloads call these).
     */
    static final class RacingClient implements DynamoDbClient {
        private final DynamoDbClient delegate;
        private Runnable race;

        RacingClient(DynamoDbClient delegate, Runnable race) {
            this.delegate = delegate;
            this.race = race;
        }

        private void raceOnce() {
            if (race != null) {
                race.run();
                race = null;
            }
        }

        @Override
        public PutItemResponse putItem(PutItemRequest request) {
            raceOnce();
            return delegate.putItem(request);
        }

        @Override
        public DeleteItemResponse deleteItem(DeleteItemRequest request) {
            raceOnce();
            return delegate.deleteItem(request);
        }

        @Override
        public GetItemResponse getItem(GetItemRequest request) {
            return delegate.getItem(request);
        }

        @Override
        public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
            return delegate.batchGetItem(request);
        }

        @Override
        public String serviceName() {
            return delegate.serviceName();
        }

        @Override
        public void close() {}
    }
}
