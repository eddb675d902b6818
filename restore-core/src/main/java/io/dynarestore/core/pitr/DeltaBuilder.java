package io.dynarestore.core.pitr;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.ExportLine;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import tools.jackson.core.JsonGenerator;

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

    private final List<String> keyAttributes;
    private final long fromMicros;
    private final long untilMicros;
    private final int bits;
    private final Path dir;
    private final JsonGenerator[] buckets;
    private final OutputStream[] streams;
    private long accepted;

    /**
     * @param fromMicros  the base backup's time: earlier writes are in the base already
     * @param untilMicros the end (exclusive) of the restored second
     * @param bits        {@code 2^bits} buckets; choose so that one bucket fits the memory budget
     */
    public DeltaBuilder(List<String> keyAttributes, long fromMicros, long untilMicros, int bits) {
        if (bits < 0 || bits > 12) {
            throw new IllegalArgumentException("between 1 and 4096 buckets, not 2^" + bits);
        }
        this.keyAttributes = keyAttributes;
        this.fromMicros = fromMicros;
        this.untilMicros = untilMicros;
        this.bits = bits;
        try {
            this.dir = Files.createTempDirectory("delta-");
            this.buckets = new JsonGenerator[1 << bits];
            this.streams = new OutputStream[1 << bits];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
        Long ts = change.writeTimestampMicros();
        if (ts == null || change.keys() == null) {
            throw new IllegalArgumentException("a change needs Keys and Metadata.WriteTimestampMicros");
        }
        if (ts < fromMicros || ts >= untilMicros) {
            return false;
        }
        int b = KeyHash.of(change.keys(), keyAttributes).bucket(bits);
        change.write(bucket(b));
        bucket(b).writeRaw('\n');
        accepted++;
        return true;
    }

    public long accepted() {
        return accepted;
    }

    private JsonGenerator bucket(int b) {
        if (buckets[b] == null) {
            try {
                streams[b] = new BufferedOutputStream(Files.newOutputStream(dir.resolve("bucket-" + b)), 1 << 16);
                buckets[b] = DynamoJson.generator(streams[b]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return buckets[b];
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
        long puts = 0;
        long deletes = 0;
        long maxBucket = 0;
        try {
            for (int b = 0; b < buckets.length; b++) {
                if (buckets[b] == null) {
                    continue;
                }
                buckets[b].close();
                streams[b].close();
                Map<KeyHash, ExportLine> last = new HashMap<>();
                Path file = dir.resolve("bucket-" + b);
                try (var reader = DataFileReader.plain(file.toString(), Files.newInputStream(file))) {
                    for (ExportLine line; (line = reader.next()) != null; ) {
                        KeyHash key = KeyHash.of(line.keys(), keyAttributes);
                        ExportLine kept = last.get(key);
                        if (kept == null || line.writeTimestampMicros() >= kept.writeTimestampMicros()) {
                            last.put(key, line);
                        }
                    }
                }
                maxBucket = Math.max(maxBucket, last.size());
                var sorted = new ArrayList<>(last.entrySet());
                sorted.sort(Map.Entry.comparingByKey());
                for (var e : sorted) {
                    sink.accept(e.getKey(), e.getValue());
                    if (e.getValue().newImage() == null) {
                        deletes++;
                    } else {
                        puts++;
                    }
                }
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Result(puts, deletes, maxBucket);
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
        for (int b = 0; b < buckets.length; b++) {
            try {
                if (buckets[b] != null) {
                    buckets[b].close();
                    streams[b].close();
                }
                Files.deleteIfExists(dir.resolve("bucket-" + b));
            } catch (IOException | RuntimeException ignored) {
                // temporary files
            }
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // temporary directory
        }
    }
}
