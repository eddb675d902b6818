package io.dynarestore.testkit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A seeded random workload on one table (creates, overwrites, deletes, re-creates of items of every
 * attribute type), with the test's own record of what it wrote and when: the oracle a restore is
 * compared with, never read back from the vault. A write's second is known when the call began and
 * ended in the same second; the seconds a call straddled are ambiguous and not used as restore points.
 * A write that fails is made again until it is answered, so that none is made but unrecorded.
 */
public final class RecordedWorkload {

    /**
     * One write: its key, its image ({@code null}: deleted), the seconds its call began and ended in,
     * and when it was answered (epoch milliseconds).
     */
    public record Write(
            String key, Map<String, AttributeValue> image, long firstSecond, long lastSecond, long answeredMillis) {}

    private final DynamoDbClient dynamo;
    private final String table;
    private final List<String> keyAttributes;
    private final RandomItems items;
    private final Random random;
    private final int keys;
    private final Map<Long, Integer> versions = new HashMap<>();
    private final List<Write> writes = new ArrayList<>();
    private final Set<Long> ambiguous = new TreeSet<>();

    public RecordedWorkload(DynamoDbClient dynamo, String table, RandomItems.Shape shape, long seed, int keys) {
        this.dynamo = dynamo;
        this.table = table;
        this.keyAttributes = shape.sortKey() == null
                ? List.of(shape.partitionKey())
                : List.of(shape.partitionKey(), shape.sortKey());
        this.items = new RandomItems(seed, shape);
        this.random = new Random(seed);
        this.keys = keys;
    }

    public List<String> keyAttributes() {
        return keyAttributes;
    }

    /** One random write. */
    public synchronized void step() {
        long index = random.nextInt(keys);
        int op = random.nextInt(10);
        if (op < 3) {
            Map<String, AttributeValue> key = keyOf(items.item(index));
            long begin = System.currentTimeMillis();
            untilDone(() -> dynamo.deleteItem(b -> b.tableName(table).key(key)));
            record(ItemDigests.key(key, keyAttributes), null, begin);
        } else {
            int version = versions.merge(index, 1, Integer::sum);
            Map<String, AttributeValue> item = items.item(index, version);
            long begin = System.currentTimeMillis();
            untilDone(() -> dynamo.putItem(b -> b.tableName(table).item(item)));
            record(ItemDigests.key(item, keyAttributes), item, begin);
        }
    }

    /**
     * Makes a write, again and again until it is answered: a write whose answer was lost may have been
     * made, and writing it again is harmless (the same image), so the record is exact once one succeeds.
     */
    private static void untilDone(Runnable write) {
        long deadline = System.currentTimeMillis() + 300_000;
        while (true) {
            try {
                write.run();
                return;
            } catch (SdkException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private void record(String key, Map<String, AttributeValue> image, long beginMillis) {
        long answered = System.currentTimeMillis();
        long first = Math.floorDiv(beginMillis, 1000);
        long last = Math.floorDiv(answered, 1000);
        writes.add(new Write(key, image, first, last, answered));
        for (long s = first; s < last; s++) {
            ambiguous.add(s);
        }
    }

    private Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
        var key = new HashMap<String, AttributeValue>();
        keyAttributes.forEach(k -> key.put(k, item.get(k)));
        return key;
    }

    public synchronized boolean isAmbiguous(long second) {
        return ambiguous.contains(second);
    }

    public synchronized List<Write> writes() {
        return List.copyOf(writes);
    }

    public synchronized long lastSecond() {
        return writes.isEmpty() ? 0 : writes.get(writes.size() - 1).lastSecond();
    }

    /** Key to item digest after every write made up to the end of second {@code t}: brute-force replay. */
    public synchronized TreeMap<String, String> imageAt(Instant t) {
        long second = t.getEpochSecond();
        var live = new HashMap<String, Map<String, AttributeValue>>();
        for (Write w : writes) {
            if (w.lastSecond() <= second) {
                if (w.image() == null) {
                    live.remove(w.key());
                } else {
                    live.put(w.key(), w.image());
                }
            }
        }
        return ItemDigests.of(live.values(), keyAttributes);
    }
}
