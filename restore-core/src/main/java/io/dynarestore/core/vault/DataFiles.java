package io.dynarestore.core.vault;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.codec.DynamoJson;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.core.JsonGenerator;

/**
 * The data files of one export (full, incremental, or a restore's delta): gzip files of one JSON
 * object per line under {@code <prefix>data/}, each cut at a fixed number of lines, staged on
 * local disk and then uploaded, so memory stays flat. Lines are written through {@link Part}s,
 * one per writing thread; {@link #writeManifest()} lists the files in {@code manifest-files.json}.
 */
public final class DataFiles {

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final int linesPerFile;
    private final List<ManifestFile> files = Collections.synchronizedList(new ArrayList<>());
    private volatile int compressionLevel = Deflater.DEFAULT_COMPRESSION;
    private volatile int keySlices = 1;

    public DataFiles(S3Client s3, String bucket, String prefix, int linesPerFile) {
        if (linesPerFile < 1) {
            throw new IllegalArgumentException("linesPerFile must be at least 1");
        }
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = prefix;
        this.linesPerFile = linesPerFile;
    }

    public Part openPart() {
        return new Part();
    }

    /**
     * The gzip level of the files opened from now on ({@link Deflater#BEST_SPEED} to
     * {@link Deflater#BEST_COMPRESSION}; default 6). Any level reads back the same.
     */
    public DataFiles compressionLevel(int level) {
        if (level != Deflater.DEFAULT_COMPRESSION
                && (level < Deflater.BEST_SPEED || level > Deflater.BEST_COMPRESSION)) {
            throw new IllegalArgumentException("a gzip level is 1 to 9, not " + level);
        }
        this.compressionLevel = level;
        return this;
    }

    /**
     * Writes each file opened from now on as {@code count} gzip members, one per equal slice of the
     * key-hash space in hash order (ADR 0045; 1, the default: one member, as native files are). Lines
     * are then written with their slice ({@link Part#write(int, Consumer)}, {@link Part#writeRaw(int, byte[]...)}).
     */
    public DataFiles keySlices(int count) {
        if (count < 1 || count > MAX_KEY_SLICES) {
            throw new IllegalArgumentException("a file has 1 to " + MAX_KEY_SLICES + " key slices, not " + count);
        }
        this.keySlices = count;
        return this;
    }

    /**
     * A gzip stream at {@code level} over {@code stored}, buffered in front too: a line's pieces reach
     * the deflater in one call per {@code size} bytes, not one each.
     */
    static OutputStream gzip(OutputStream stored, int level, int size) throws IOException {
        return new BufferedOutputStream(
                new GZIPOutputStream(stored, size) {
                    {
                        def.setLevel(level);
                    }
                },
                size);
    }

    /** At most this many key slices per file: each is a gzip stream open while the file is written. */
    public static final int MAX_KEY_SLICES = 64;

    /** Counts files an earlier attempt wrote (a resumed Scan's checkpointed ones) among this one's. */
    public void adopt(Collection<ManifestFile> earlier) {
        files.addAll(earlier);
    }

    /** The files written so far, in key order (which makes segment numbers stable). */
    public List<ManifestFile> files() {
        List<ManifestFile> sorted;
        synchronized (files) {
            sorted = new ArrayList<>(files);
        }
        sorted.sort(Comparator.comparing(ManifestFile::dataFileS3Key));
        return sorted;
    }

    /** Writes {@code manifest-files.json} (one JSON object per line) and returns its key. */
    public String writeManifest() {
        var lines = new StringBuilder();
        for (ManifestFile f : files()) {
            lines.append(Json.toString(f)).append('\n');
        }
        String key = prefix + VaultLayout.MANIFEST_FILES;
        put(key, lines.toString().getBytes(StandardCharsets.UTF_8), "application/json");
        return key;
    }

    /** Puts a small object (a manifest or marker) under this export's prefix. */
    public void put(String key, byte[] body, String contentType) {
        s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType), RequestBody.fromBytes(body));
    }

    public String prefix() {
        return prefix;
    }

    public String bucket() {
        return bucket;
    }

    /** Writes lines into data files for one thread; not thread-safe. Close it to upload its last file. */
    public final class Part implements AutoCloseable {
        private Path file;
        private OutputStream out;
        private MessageDigest md5;
        private JsonGenerator generator;
        /** The generator may hold bytes not yet in {@code out}: a raw line flushes it first. */
        private boolean generated;
        /** A sliced file's members, while it is open (then {@code out} is null until the cut). */
        private SlicedMembers members;
        /** Where a sliced file's generated lines are put together before they go to their member. */
        private Scratch scratch;

        private JsonGenerator scratchGenerator;

        private long inFile;
        private final List<ManifestFile> cut = new ArrayList<>();

        /**
         * Writes one line: {@code line} writes one JSON object to the generator.
         *
         * @return whether this line was the last of a file, now uploaded
         */
        public boolean write(Consumer<JsonGenerator> line) {
            return line(-1, () -> {
                line.accept(generator);
                generator.writeRaw('\n');
                generated = true;
            });
        }

        /** Writes one line of key slice {@code slice} (files of {@link #keySlices} slices); whether it ended a file. */
        public boolean write(int slice, Consumer<JsonGenerator> line) {
            return line(slice, () -> {
                scratch.reset();
                line.accept(scratchGenerator);
                scratchGenerator.flush();
                members.write(slice, scratch.buffer(), 0, scratch.size());
            });
        }

        /** The files this part has uploaded, in order. */
        public List<ManifestFile> uploaded() {
            return List.copyOf(cut);
        }

        /** Writes one line made of {@code pieces}, bytes of JSON already encoded (no line break); whether it ended a file. */
        public boolean writeRaw(byte[]... pieces) {
            return line(-1, () -> {
                if (generated) {
                    generator.flush();
                    generated = false;
                }
                for (byte[] piece : pieces) {
                    out.write(piece);
                }
                out.write('\n');
            });
        }

        /** {@link #writeRaw(byte[]...)}, into key slice {@code slice}. */
        public boolean writeRaw(int slice, byte[]... pieces) {
            return line(slice, () -> members.write(slice, pieces));
        }

        private interface LineWriter {
            void write() throws IOException;
        }

        /**
         * Opens a file if none is open, writes one line, and cuts the file once it holds its lines; a
         * sliced file takes only lines with a slice ({@code slice >= 0}), any other file none.
         */
        private boolean line(int slice, LineWriter writer) {
            try {
                if (generator == null && members == null) {
                    open();
                }
                if ((members != null) != (slice >= 0)) {
                    throw new IllegalStateException(
                            members != null
                                    ? "the files are cut in key slices: a line needs its slice"
                                    : "the files are not cut in key slices: a line has none");
                }
                writer.write();
                inFile++;
                if (inFile >= linesPerFile) {
                    cut();
                    return true;
                }
                return false;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void open() throws IOException {
            int level = compressionLevel;
            inFile = 0;
            if (keySlices > 1) {
                members = new SlicedMembers(keySlices, level);
                if (scratch == null) {
                    scratch = new Scratch();
                    scratchGenerator = DynamoJson.generator(scratch);
                }
                return;
            }
            file = Files.createTempFile("vault-part-", ".json.gz");
            md5 = md5();
            out = gzip(
                    new DigestOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), md5),
                    level,
                    1 << 16);
            generator = DynamoJson.generator(out);
        }

        private static MessageDigest md5() {
            try {
                return MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        private void cut() throws IOException {
            List<ManifestFile.KeySlice> slices = null;
            if (members != null) {
                file = Files.createTempFile("vault-part-", ".json.gz");
                md5 = md5();
                try (var whole =
                        new DigestOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), md5)) {
                    slices = members.concatenate(whole);
                }
                members = null;
            } else {
                generator.close();
                out.close();
            }
            String key = prefix + "data/" + UUID.randomUUID().toString().replace("-", "") + ".json.gz";
            Path upload = file;
            String etag = s3.putObject(
                            b -> b.bucket(bucket).key(key).contentType("application/gzip"),
                            RequestBody.fromFile(upload))
                    .eTag();
            var written = new ManifestFile(
                    inFile,
                    Base64.getEncoder().encodeToString(md5.digest()),
                    etag == null ? null : etag.replace("\"", ""),
                    key,
                    slices);
            files.add(written);
            cut.add(written);
            Files.deleteIfExists(file);
            generator = null;
            out = null;
            file = null;
        }

        /** Drops the open file without uploading it. */
        public void discard() {
            try {
                if (members != null) {
                    members.discard();
                    members = null;
                }
                if (generator != null) {
                    out.close();
                    Files.deleteIfExists(file);
                    generator = null;
                    out = null;
                    file = null;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            try {
                if (generator != null || members != null) {
                    cut();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A line put together in memory, handed on without a copy. */
    private static final class Scratch extends ByteArrayOutputStream {
        Scratch() {
            super(4_096);
        }

        byte[] buffer() {
            return buf;
        }
    }
}
