package io.dynarestore.core.pitr;

import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.ExportLine;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The delta of a point-in-time restore: for every key written in [{@code from}, {@code until}),
 * its last write (a final image, or a delete), by write time; of two writes with the same time
 * the later one read wins. One pass over the changes spills them into {@code 2^bits} bucket files
 * on local disk by key hash; each bucket is then reduced in memory on its own, so memory is
 * bounded by the largest bucket, not by the number of changes (ADR 0006).
 *
 * <p>Output, in key-hash order: data files of {@code Keys}/{@code NewImage} lines (deletes have
 * no {@code NewImage}), and the sorted hashes of every changed key ({@code KEY_HASHES}), which
 * tell writers of the base which items a change supersedes.
 */
public final class DeltaBuilder implements AutoCloseable {

    private final long fromMicros;
    private final long untilMicros;
    private final KeyBuckets buckets;
    private long accepted;

    /**
     * @param fromMicros  the base backup's time: earlier writes are in the base already
     * @param untilMicros the end (exclusive) of the restored second
     * @param bits        {@code 2^bits} buckets; choose so that one bucket fits the memory budget
     */
    public DeltaBuilder(List<String> keyAttributes, long fromMicros, long untilMicros, int bits) {
        this.fromMicros = fromMicros;
        this.untilMicros = untilMicros;
        this.buckets = new KeyBuckets(keyAttributes, bits, "delta-");
    }

    /** Bucket bits for {@code changes} changes under a memory budget (about 2 KB per change in memory). */
    public static int bitsFor(long changes, long memoryBudgetBytes) {
        long needed = Math.max(1, changes * 2_048 / Math.max(1, memoryBudgetBytes) + 1);
        int bits = 0;
        while ((1L << bits) < needed && bits < 12) {
            bits++;
        }
        return bits;
    }

    /** Takes a change if it falls in [from, until); returns whether it did. */
    public boolean add(ExportLine change) {
        long ts = KeyBuckets.writeTime(change);
        if (ts < fromMicros || ts >= untilMicros) {
            return false;
        }
        buckets.add(change);
        accepted++;
        return true;
    }

    public long accepted() {
        return accepted;
    }

    /**
     * Reduces every bucket and writes the final images and deletes into {@code out}, and the
     * sorted key hashes into {@code skipKeys}.
     */
    public Result build(DataFiles out, OutputStream skipKeys) {
        try (var part = out.openPart();
                var hashes = new DataOutputStream(new BufferedOutputStream(skipKeys, 1 << 16))) {
            return build(
                    (key, change) -> {
                        try {
                            hashes.writeLong(key.hi());
                            hashes.writeLong(key.lo());
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        part.write(ExportLine.change(
                                change.keys(), null, change.newImage(), change.writeTimestampMicros())::write);
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reduces every bucket and hands each key's last write to {@code sink}, in key-hash order. */
    public Result build(BiConsumer<KeyHash, ExportLine> sink) {
        long[] counts = new long[3];
        Map<KeyHash, ExportLine> last = new HashMap<>();
        buckets.drain(
                (key, line) -> {
                    ExportLine kept = last.get(key);
                    if (kept == null || line.writeTimestampMicros() >= kept.writeTimestampMicros()) {
                        last.put(key, line);
                    }
                },
                () -> {
                    counts[2] = Math.max(counts[2], last.size());
                    var sorted = new ArrayList<>(last.entrySet());
                    sorted.sort(Map.Entry.comparingByKey());
                    for (var e : sorted) {
                        sink.accept(e.getKey(), e.getValue());
                        counts[e.getValue().newImage() == null ? 1 : 0]++;
                    }
                    last.clear();
                });
        return new Result(counts[0], counts[1], counts[2]);
    }

    /**
     * @param puts      keys whose final image is written
     * @param deletes   keys deleted by the point in time
     * @param maxBucket keys held in memory at once (the largest bucket)
     */
    public record Result(long puts, long deletes, long maxBucket) {
        public long keys() {
            return puts + deletes;
        }
    }

    @Override
    public void close() {
        buckets.close();
    }
}
