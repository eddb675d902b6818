package io.dynarestore.core.pitr;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;
import tools.jackson.core.JsonGenerator;

/**
 * Change lines spilled to {@code 2^bits} files on local disk by the hash of their key, and read
 * back one bucket at a time: every write of one key lands in one bucket, so a reduction per key
 * holds one bucket in memory, never the whole change log (ADR 0006).
 */
final class KeyBuckets implements AutoCloseable {

    private final List<String> keyAttributes;
    private final int bits;
    private final Path dir;
    private final JsonGenerator[] buckets;
    private final OutputStream[] streams;

    KeyBuckets(List<String> keyAttributes, int bits, String prefix) {
        if (bits < 0 || bits > 12) {
            throw new IllegalArgumentException("between 1 and 4096 buckets, not 2^" + bits);
        }
        this.keyAttributes = keyAttributes;
        this.bits = bits;
        try {
            this.dir = Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.buckets = new JsonGenerator[1 << bits];
        this.streams = new OutputStream[1 << bits];
    }

    /** The write time of a change, which a change must have, like its keys. */
    static long writeTime(ExportLine change) {
        if (change.writeTimestampMicros() == null || change.keys() == null) {
            throw new IllegalArgumentException("a change needs Keys and Metadata.WriteTimestampMicros");
        }
        return change.writeTimestampMicros();
    }

    void add(ExportLine change) {
        JsonGenerator g = bucket(KeyHash.of(change.keys(), keyAttributes).bucket(bits));
        change.write(g);
        g.writeRaw('\n');
    }

    /**
     * Reads the buckets back in bucket order: hands {@code line} every line of one bucket with its
     * key's hash, in the order added, then runs {@code endOfBucket}; each file is deleted once read.
     */
    void drain(BiConsumer<KeyHash, ExportLine> line, Runnable endOfBucket) {
        try {
            for (int b = 0; b < buckets.length; b++) {
                if (buckets[b] == null) {
                    continue;
                }
                buckets[b].close();
                streams[b].close();
                Path file = dir.resolve("bucket-" + b);
                try (var reader = DataFileReader.plain(file.toString(), Files.newInputStream(file))) {
                    for (ExportLine l; (l = reader.next()) != null; ) {
                        line.accept(KeyHash.of(l.keys(), keyAttributes), l);
                    }
                }
                endOfBucket.run();
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
