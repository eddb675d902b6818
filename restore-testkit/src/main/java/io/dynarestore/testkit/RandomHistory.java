package io.dynarestore.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A seeded random history of a table: a base of items, then timed writes that overwrite, delete,
 * create and re-create items of every type. {@link #imageBefore} replays it by brute force, as
 * the oracle that restores are compared with.
 */
public final class RandomHistory {

    /** One write: a new image, or {@code null} for a delete; {@code oldImage} as it was before. */
    public record Write(
            Map<String, AttributeValue> keys,
            Map<String, AttributeValue> oldImage,
            Map<String, AttributeValue> newImage,
            long micros) {}

    private final RandomItems items;
    private final List<String> keyAttributes;
    private final List<Map<String, AttributeValue>> base;
    private final List<Write> writes;

    /**
     * @param startMicros the base's time; writes fall in [startMicros, startMicros + spanMicros)
     */
    public RandomHistory(
            long seed, RandomItems.Shape shape, int baseItems, int writeCount, long startMicros, long spanMicros) {
        this.items = new RandomItems(seed, shape);
        this.keyAttributes = shape.sortKey() == null
                ? List.of(shape.partitionKey())
                : List.of(shape.partitionKey(), shape.sortKey());
        Random r = new Random(seed ^ 0x5DEECE66DL);
        base = new ArrayList<>();
        Map<Long, Map<String, AttributeValue>> live = new LinkedHashMap<>();
        for (long i = 0; i < baseItems; i++) {
            var item = items.item(i);
            base.add(item);
            live.put(i, item);
        }
        var dead = new ArrayList<Long>();
        long next = baseItems;
        long[] times = new long[writeCount];
        for (int i = 0; i < writeCount; i++) {
            times[i] = startMicros + (long) (r.nextDouble() * spanMicros);
        }
        Arrays.sort(times);
        writes = new ArrayList<>();
        Map<Long, Integer> versions = new HashMap<>();
        for (int i = 0; i < writeCount; i++) {
            int kind = r.nextInt(100);
            long index;
            Map<String, AttributeValue> after;
            if (kind < 50 && !live.isEmpty()) {
                index = pick(r, live);
                after = items.item(index, versions.merge(index, 1, Integer::sum));
            } else if (kind < 70 && !live.isEmpty()) {
                index = pick(r, live);
                after = null;
            } else if (kind < 85 && !dead.isEmpty()) {
                index = dead.remove(r.nextInt(dead.size()));
                after = items.item(index, versions.merge(index, 1, Integer::sum));
            } else {
                index = next++;
                after = items.item(index);
            }
            var before = live.get(index);
            if (after == null) {
                live.remove(index);
                dead.add(index);
            } else {
                live.put(index, after);
            }
            writes.add(new Write(keyOf(items.item(index)), before, after, times[i]));
        }
    }

    private static long pick(Random r, Map<Long, ?> live) {
        int n = r.nextInt(live.size());
        var it = live.keySet().iterator();
        for (int i = 0; i < n; i++) {
            it.next();
        }
        return it.next();
    }

    private Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
        var key = new LinkedHashMap<String, AttributeValue>();
        keyAttributes.forEach(k -> key.put(k, item.get(k)));
        return key;
    }

    public List<String> keyAttributes() {
        return keyAttributes;
    }

    public List<Map<String, AttributeValue>> base() {
        return base;
    }

    public List<Write> writes() {
        return writes;
    }

    /**
     * The writes made in [{@code fromMicros}, {@code toMicros}), in time order; {@code compacted}
     * keeps only each key's last one, as a native DynamoDB incremental export does.
     */
    public List<Write> writesIn(long fromMicros, long toMicros, boolean compacted) {
        var in = new ArrayList<Write>();
        for (Write w : writes) {
            if (w.micros() >= fromMicros && w.micros() < toMicros) {
                in.add(w);
            }
        }
        if (!compacted) {
            return in;
        }
        var last = new LinkedHashMap<String, Write>();
        in.forEach(w -> last.put(ItemDigests.key(w.keys(), keyAttributes), w));
        return new ArrayList<>(last.values());
    }

    /** The table after every write before {@code untilMicros}, keyed by canonical key. */
    public TreeMap<String, Map<String, AttributeValue>> imageBefore(long untilMicros) {
        var image = new TreeMap<String, Map<String, AttributeValue>>();
        for (var item : base) {
            image.put(ItemDigests.key(item, keyAttributes), item);
        }
        for (Write w : writes) {
            if (w.micros() >= untilMicros) {
                break;
            }
            String key = ItemDigests.key(w.keys(), keyAttributes);
            if (w.newImage() == null) {
                image.remove(key);
            } else {
                image.put(key, w.newImage());
            }
        }
        return image;
    }
}
