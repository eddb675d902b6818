package io.dynarestore.core.pitr;

import io.dynarestore.core.vault.ExportLine;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A seeded random history of one table, and the brute-force oracle of its images: puts,
 * overwrites, deletes and re-creates of keys of every key type (S, N or B partition key, with or
 * without an S, N or B sort key), several writes in one second and some in one microsecond, each
 * recorded as a NEW_AND_OLD_IMAGES change line the way the Streams capture writes it.
 */
final class ChangeHistory {

    static final long SECOND = 1_000_000L;
    static final long START = 1_764_583_200L * SECOND;
    private static final String[] TYPES = {"S", "N", "B"};

    final List<String> keyAttributes = new ArrayList<>();
    final List<ExportLine> lines = new ArrayList<>();
    private final Random random;
    private final String pkType;
    private final String skType;

    ChangeHistory(long seed) {
        random = new Random(seed);
        pkType = TYPES[random.nextInt(3)];
        skType = random.nextBoolean() ? TYPES[random.nextInt(3)] : null;
        keyAttributes.add("pk");
        if (skType != null) {
            keyAttributes.add("sk");
        }
        var pool = new ArrayList<Map<String, AttributeValue>>();
        int keys = 5 + random.nextInt(40);
        for (int i = 0; i < keys; i++) {
            var key = new LinkedHashMap<String, AttributeValue>();
            key.put("pk", value(pkType, "p" + random.nextInt(keys / 2 + 1)));
            if (skType != null) {
                key.put("sk", value(skType, Integer.toString(i)));
            } else {
                key.put("pk", value(pkType, "p" + i));
            }
            pool.add(key);
        }
        var state = new HashMap<Map<String, AttributeValue>, Map<String, AttributeValue>>();
        long ts = START;
        int writes = 20 + random.nextInt(200);
        for (int i = 0; i < writes; i++) {
            // mostly a few hundred milliseconds apart, sometimes in the same microsecond
            ts += random.nextInt(8) == 0 ? 0 : 1 + random.nextInt((int) (SECOND / 2));
            var key = pool.get(random.nextInt(pool.size()));
            var before = state.get(key);
            Map<String, AttributeValue> after;
            if (before != null && random.nextInt(4) == 0) {
                after = null;
            } else {
                after = new LinkedHashMap<>(key);
                after.put("v", AttributeValue.fromN(Integer.toString(random.nextInt(1000))));
                after.put("tag", AttributeValue.fromS(random.nextBoolean() ? "keep" : "other"));
            }
            if (before == null && after == null) {
                continue;
            }
            lines.add(ExportLine.change(key, before, after, ts));
            if (after == null) {
                state.remove(key);
            } else {
                state.put(key, after);
            }
        }
    }

    private static AttributeValue value(String type, String text) {
        return switch (type) {
            case "S" -> AttributeValue.fromS(text);
            case "N" -> AttributeValue.fromN(Integer.toString(Math.abs(text.hashCode() % 100_000)));
            default -> AttributeValue.fromB(SdkBytes.fromString(text, StandardCharsets.UTF_8));
        };
    }

    /** A second within the history, drawn from its seed. */
    long randomSecond() {
        long first = START / SECOND;
        long last = lines.get(lines.size() - 1).writeTimestampMicros() / SECOND;
        return first + (long) (random.nextDouble() * (last - first + 1));
    }

    Random random() {
        return random;
    }

    /** The table as it was at the end of second {@code second}: every write before the next second replayed. */
    Map<Map<String, AttributeValue>, Map<String, AttributeValue>> imageAt(long second) {
        return replay((second + 1) * SECOND);
    }

    /** The table now, after every write. */
    Map<Map<String, AttributeValue>, Map<String, AttributeValue>> current() {
        return replay(Long.MAX_VALUE);
    }

    private Map<Map<String, AttributeValue>, Map<String, AttributeValue>> replay(long untilMicros) {
        var table = new HashMap<Map<String, AttributeValue>, Map<String, AttributeValue>>();
        for (ExportLine line : lines) {
            if (line.writeTimestampMicros() >= untilMicros) {
                break;
            }
            if (line.newImage() == null) {
                table.remove(line.keys());
            } else {
                table.put(line.keys(), line.newImage());
            }
        }
        return table;
    }

    /** The distinct keys written in [from, until). */
    List<Map<String, AttributeValue>> keysWritten(long fromMicros, long untilMicros) {
        return lines.stream()
                .filter(l -> l.writeTimestampMicros() >= fromMicros && l.writeTimestampMicros() < untilMicros)
                .map(ExportLine::keys)
                .distinct()
                .toList();
    }
}
