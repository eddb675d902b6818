package io.dynarestore.planner.staging;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.ExportLine;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonGenerator;

/**
 * The keys a full in-place restore must delete: those the table holds now but the image does
 * not. The image's keys (base keys, final puts and deletes of the delta) and the table's current
 * keys are spilled into {@code 2^bits} bucket files on local disk by key hash; each bucket is
 * compared in memory on its own, so memory is bounded by the largest bucket (ADR 0007).
 */
public final class SweepBuilder implements AutoCloseable {

    private static final byte BASE = 0;
    private static final byte PUT = 1;
    private static final byte DELETE = 2;

    private final List<String> keyAttributes;
    private final int bits;
    private final Path dir;
    private final DataOutputStream[] image;
    private final JsonGenerator[] current;
    private final OutputStream[] currentStreams;

    public SweepBuilder(List<String> keyAttributes, int bits) {
        this.keyAttributes = keyAttributes;
        this.bits = bits;
        try {
            this.dir = Files.createTempDirectory("sweep-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.image = new DataOutputStream[1 << bits];
        this.current = new JsonGenerator[1 << bits];
        this.currentStreams = new OutputStream[1 << bits];
    }

    /** A key of the base backup. */
    public void baseKey(Map<String, AttributeValue> item) {
        baseKey(KeyHash.of(item, keyAttributes));
    }

    /** A key of the base backup, by its hash. */
    public void baseKey(KeyHash key) {
        imageEntry(key, BASE);
    }

    /** A key of the delta: present at T ({@code put}) or deleted by T. */
    public void deltaKey(Map<String, AttributeValue> keys, boolean put) {
        deltaKey(KeyHash.of(keys, keyAttributes), put);
    }

    /** A key of the delta, by its hash. */
    public void deltaKey(KeyHash key, boolean put) {
        imageEntry(key, put ? PUT : DELETE);
    }

    /** A key the destination table holds now; returns its hash. */
    public KeyHash currentKey(Map<String, AttributeValue> keys) {
        KeyHash hash = KeyHash.of(keys, keyAttributes);
        int b = hash.bucket(bits);
        try {
            if (current[b] == null) {
                currentStreams[b] =
                        new BufferedOutputStream(Files.newOutputStream(dir.resolve("current-" + b)), 1 << 16);
                current[b] = DynamoJson.generator(currentStreams[b]);
            }
            ExportLine.change(keys, null, null, 0).write(current[b]);
            current[b].writeRaw('\n');
            return hash;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void imageEntry(KeyHash h, byte kind) {
        int b = h.bucket(bits);
        try {
            if (image[b] == null) {
                image[b] = new DataOutputStream(
                        new BufferedOutputStream(Files.newOutputStream(dir.resolve("image-" + b)), 1 << 16));
            }
            image[b].writeLong(h.hi());
            image[b].writeLong(h.lo());
            image[b].writeByte(kind);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes a delete line for every current key that is neither in the image nor deleted by the
     * delta (whose segments delete those themselves); returns how many.
     */
    public long build(DataFiles out) {
        long deletes = 0;
        try (var part = out.openPart()) {
            for (int b = 0; b < current.length; b++) {
                if (current[b] == null) {
                    continue;
                }
                current[b].close();
                currentStreams[b].close();
                Map<KeyHash, Byte> present = imageOf(b);
                Path file = dir.resolve("current-" + b);
                try (var reader = DataFileReader.plain(file.toString(), Files.newInputStream(file))) {
                    for (ExportLine line; (line = reader.next()) != null; ) {
                        Byte state = present.get(KeyHash.of(line.keys(), keyAttributes));
                        // a key the delta deletes is deleted by its delta segment; listing it here too would
                        // make two segments race for one key, and their counts (and a dry run's) differ
                        if (state == null) {
                            var keys = line.keys();
                            part.write(
                                    g -> ExportLine.change(keys, null, null, 0).write(g));
                            deletes++;
                        }
                    }
                }
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return deletes;
    }

    /** The image's keys in bucket {@code b}: a key is present if put by the delta, or in the base and not deleted. */
    private Map<KeyHash, Byte> imageOf(int b) throws IOException {
        var state = new HashMap<KeyHash, Byte>();
        if (image[b] == null) {
            return state;
        }
        image[b].close();
        Path file = dir.resolve("image-" + b);
        try (var in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            while (true) {
                long hi;
                try {
                    hi = in.readLong();
                } catch (EOFException end) {
                    break;
                }
                var h = new KeyHash(hi, in.readLong());
                byte kind = in.readByte();
                // the delta's final state overrides the base
                state.merge(h, kind, (old, now) -> old == BASE ? now : now == BASE ? old : now);
            }
        }
        Files.deleteIfExists(file);
        return state;
    }

    @Override
    public void close() {
        for (int b = 0; b < current.length; b++) {
            try {
                if (current[b] != null) {
                    current[b].close();
                    currentStreams[b].close();
                }
                if (image[b] != null) {
                    image[b].close();
                }
                Files.deleteIfExists(dir.resolve("current-" + b));
                Files.deleteIfExists(dir.resolve("image-" + b));
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
