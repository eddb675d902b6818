package io.dynarestore.api.activity;

import static io.dynarestore.core.pitr.PitrCoverage.micros;

import io.dynarestore.core.codec.ItemEquality;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Counts a change log's writes by step: a write without an old image creates, one without a new image
 * deletes, the others overwrite; its write units are DynamoDB's, those of the larger of its two images
 * (1 KB each, at least one). A write is counted once however many exports hold it: where an export
 * overlaps one read before it (in time, and in keys: groups of one shard-group count hold different
 * keys), its writes are told apart by key and time, in a set of at most {@link #MAX_OVERLAP_WRITES};
 * past that, or with a compacted (native) export, which holds only each key's last write of its
 * window, the counts are marked approximate. Exports are read in the order of their start until the
 * deadline; every write up to the start of the first export not read is counted.
 */
final class ChangeCounts {

    static final int MAX_OVERLAP_WRITES = 1_000_000;

    /**
     * @param countedUntil the instant (micros) up to which every write is counted: the end when complete
     * @param approximate  whether a compacted export or too many overlapping writes made counts inexact
     */
    record Result(List<Step> steps, boolean complete, long countedUntil, boolean approximate) {}

    /** A write, by key and time: what two exports holding the same write share. */
    private record Write(KeyHash key, long micros) {}

    private final ActivityVault vault;

    ChangeCounts(ActivityVault vault) {
        this.vault = vault;
    }

    /** The steps of [{@code fromMicros}, {@code toMicros}), each {@code stepMicros} long, read until {@code deadlineNanos}. */
    Result count(long fromMicros, long toMicros, long stepMicros, long deadlineNanos) {
        var steps = new ArrayList<Step>();
        for (long t = fromMicros; t < toMicros; t += stepMicros) {
            steps.add(new Step(t));
        }
        var exports = vault.exports().stream()
                .filter(e -> micros(e.to()) > fromMicros && micros(e.from()) < toMicros)
                .sorted(Comparator.comparing(ExportMetadata::from))
                .toList();
        Set<Write> seen = new HashSet<>();
        boolean[] approximate = {false};
        for (int i = 0; i < exports.size(); i++) {
            ExportMetadata export = exports.get(i);
            if (System.nanoTime() > deadlineNanos) {
                return new Result(steps, false, micros(export.from()), approximate[0]);
            }
            approximate[0] |= export.compacted();
            List<long[]> overlaps = overlaps(export, exports.subList(0, i));
            int index = i;
            vault.changesIn(export, line -> {
                long ts = line.writeTimestampMicros();
                if (ts < fromMicros || ts >= toMicros) {
                    return;
                }
                if (inAny(overlaps, ts) || laterMayRepeat(exports, index, ts)) {
                    if (seen.size() >= MAX_OVERLAP_WRITES) {
                        approximate[0] = true;
                    } else if (!seen.add(new Write(keyHash(line.keys()), ts))) {
                        return; // counted from an export read before
                    }
                }
                add(steps.get((int) ((ts - fromMicros) / stepMicros)), line);
            });
        }
        return new Result(steps, true, toMicros, approximate[0]);
    }

    /** Whether an export read later may hold a write of export {@code i} at {@code ts} again. */
    private static boolean laterMayRepeat(List<ExportMetadata> exports, int i, long ts) {
        for (int j = i + 1; j < exports.size() && micros(exports.get(j).from()) < ts; j++) {
            if (ts <= micros(exports.get(j).to()) && sharesKeys(exports.get(i), exports.get(j))) {
                return true;
            }
        }
        return false;
    }

    private static void add(Step step, ExportLine line) {
        Map<String, AttributeValue> before = line.oldImage();
        Map<String, AttributeValue> after = line.newImage();
        if (after == null) {
            step.deletes++;
            step.writeUnits += units(before);
        } else if (before == null) {
            step.creates++;
            step.writeUnits += units(after);
        } else {
            step.overwrites++;
            step.writeUnits += Math.max(units(before), units(after));
            ItemEquality.changedAttributes(before, after).forEach(step::rewrote);
        }
    }

    /** A change's {@code Keys} hold the key attributes only: hashed in the order of their names. */
    private static KeyHash keyHash(Map<String, AttributeValue> keys) {
        return KeyHash.of(keys, new ArrayList<>(new TreeSet<>(keys.keySet())));
    }

    /** DynamoDB's write units for an item: one per started KB, at least one. */
    static long units(Map<String, AttributeValue> item) {
        return item == null ? 1 : Math.max(1, (ItemSize.of(item) + 1023) / 1024);
    }

    /** The time ranges in which {@code export} may hold writes an earlier one holds too. */
    private static List<long[]> overlaps(ExportMetadata export, List<ExportMetadata> earlier) {
        var result = new ArrayList<long[]>();
        for (ExportMetadata e : earlier) {
            long lo = Math.max(micros(e.from()), micros(export.from()));
            long hi = Math.min(micros(e.to()), micros(export.to()));
            if (lo < hi && sharesKeys(e, export)) {
                result.add(new long[] {lo, hi});
            }
        }
        return result;
    }

    /** Two groups of one shard-group count hold different keys; any other two exports may hold the same. */
    private static boolean sharesKeys(ExportMetadata a, ExportMetadata b) {
        return a.shardGroup() == null
                || b.shardGroup() == null
                || a.shardGroup().of() != b.shardGroup().of()
                || a.shardGroup().index() == b.shardGroup().index();
    }

    private static boolean inAny(List<long[]> ranges, long ts) {
        for (long[] r : ranges) {
            if (ts > r[0] && ts <= r[1]) {
                return true;
            }
        }
        return false;
    }
}
