package io.dynarestore.api.activity;

import static io.dynarestore.core.pitr.PitrCoverage.micros;

import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Object mother of write workloads: a seeded background of creates, overwrites and deletes about
 * once every ten seconds, optionally with a burst (a mass delete, or one attribute rewritten on most
 * items) starting at a random second; and a vault that holds the workload in exports.
 */
final class Workloads {

    static final long SECOND = 1_000_000L;
    static final long START = 1_800_000_000L * SECOND;

    enum Burst {
        NONE,
        MASS_DELETE,
        ATTRIBUTE_REWRITE
    }

    /** The writes in time order, the workload's span, and its burst's first write (null without one). */
    record Workload(List<ExportLine> writes, long end, Long burstStart) {}

    private Workloads() {}

    static Workload random(long seed, int minutes, Burst burst) {
        var r = new Random(seed);
        var live = new LinkedHashMap<String, Map<String, AttributeValue>>();
        int next = 0;
        for (; next < 300; next++) {
            live.put("k" + next, item(r, "k" + next));
        }
        var writes = new ArrayList<ExportLine>();
        long end = START + minutes * 60 * SECOND;
        long burstAt = burst == Burst.NONE
                ? -1
                : START + (12 + r.nextInt(minutes - 15)) * 60 * SECOND + r.nextInt(60) * SECOND;
        Long burstStart = null;
        for (long t = START; t < end; t += SECOND) {
            if (t == burstAt) {
                burstStart = t + 1;
                burst(r, burst, live, writes, t);
            }
            if (r.nextInt(10) != 0) {
                continue;
            }
            long ts = t + 1 + r.nextInt(999_998);
            int kind = r.nextInt(4);
            var keys = new ArrayList<>(live.keySet());
            if (kind == 0 || keys.isEmpty()) {
                String key = "k" + next++;
                var item = item(r, key);
                live.put(key, item);
                writes.add(ExportLine.change(key(key), null, item, ts));
            } else if (kind == 1) {
                String key = keys.get(r.nextInt(keys.size()));
                writes.add(ExportLine.change(key(key), live.remove(key), null, ts));
            } else {
                String key = keys.get(r.nextInt(keys.size()));
                var before = live.get(key);
                var after = new HashMap<>(before);
                for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
                    after.put("a" + r.nextInt(10), num(r));
                }
                live.put(key, after);
                writes.add(ExportLine.change(key(key), before, after, ts));
            }
        }
        writes.sort((a, b) -> Long.compare(a.writeTimestampMicros(), b.writeTimestampMicros()));
        return new Workload(writes, end, burstStart);
    }

    /** The burst: over 5 to 20 seconds, half the items deleted, or 60% of them given a new status. */
    private static void burst(
            Random r, Burst burst, Map<String, Map<String, AttributeValue>> live, List<ExportLine> writes, long t) {
        long length = (5 + r.nextInt(16)) * SECOND;
        var keys = new ArrayList<>(live.keySet());
        int n = (int) (keys.size() * (burst == Burst.MASS_DELETE ? 0.5 : 0.6));
        for (int i = 0; i < n; i++) {
            String key = keys.get(i);
            long ts = t + 1 + (i == 0 ? 0 : (long) (r.nextDouble() * (length - 2)));
            if (burst == Burst.MASS_DELETE) {
                writes.add(ExportLine.change(key(key), live.remove(key), null, ts));
            } else {
                var before = live.get(key);
                var after = new HashMap<>(before);
                after.put("status", AttributeValue.fromS("VOID-" + i));
                live.put(key, after);
                writes.add(ExportLine.change(key(key), before, after, ts));
            }
        }
    }

    static Map<String, AttributeValue> key(String key) {
        return Map.of("pk", AttributeValue.fromS(key));
    }

    private static Map<String, AttributeValue> item(Random r, String key) {
        var item = new HashMap<String, AttributeValue>();
        item.put("pk", AttributeValue.fromS(key));
        item.put("status", AttributeValue.fromS("OPEN"));
        for (int i = 0; i < 10; i++) {
            item.put("a" + i, num(r));
        }
        if (r.nextInt(20) == 0) {
            item.put("blob", AttributeValue.fromS("x".repeat(1500 + r.nextInt(2000)))); // more than one write unit
        }
        return item;
    }

    private static AttributeValue num(Random r) {
        return AttributeValue.fromN(Integer.toString(r.nextInt(1_000_000)));
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, SECOND), Math.floorMod(micros, SECOND) * 1_000);
    }

    /** A vault whose exports each hold the writes of their window, (from, to], of their shard group's keys. */
    static final class Vault implements ActivityVault {
        final List<ExportLine> log;
        final List<ExportMetadata> exports = new ArrayList<>();

        Vault(List<ExportLine> log) {
            this.log = log;
        }

        Vault export(long from, long to, ExportMetadata.ShardGroup group) {
            exports.add(new ExportMetadata(
                    ExportMetadata.FORMAT_VERSION,
                    "x" + exports.size(),
                    "a",
                    "r",
                    "t",
                    instant(from),
                    instant(to),
                    false,
                    0,
                    null,
                    group));
            return this;
        }

        @Override
        public List<ExportMetadata> exports() {
            return exports;
        }

        @Override
        public void changesIn(ExportMetadata export, Consumer<ExportLine> sink) {
            long from = micros(export.from());
            long to = micros(export.to());
            for (int i = log.size() - 1; i >= 0; i--) { // a file's order is not the log's
                var w = log.get(i);
                var group = export.shardGroup();
                if (w.writeTimestampMicros() > from
                        && w.writeTimestampMicros() <= to
                        && (group == null
                                || Math.floorMod(w.keys().get("pk").s().hashCode(), group.of()) == group.index())) {
                    sink.accept(w);
                }
            }
        }
    }
}
