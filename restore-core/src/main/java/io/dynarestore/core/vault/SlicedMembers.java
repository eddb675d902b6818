package io.dynarestore.core.vault;

import io.dynarestore.core.vault.ManifestFile.KeySlice;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The gzip members of one data file being written, one per slice of the key-hash space, each in a
 * local file of its own until the data file is cut; then laid end to end in slice order (ADR 0045).
 * A slice with no line has no member (0 bytes). Not thread-safe: one per writing part.
 */
final class SlicedMembers {

    private final int level;
    private final Path[] files;
    private final OutputStream[] outs;
    private final long[] lines;

    SlicedMembers(int count, int level) {
        this.level = level;
        this.files = new Path[count];
        this.outs = new OutputStream[count];
        this.lines = new long[count];
    }

    /** Writes one line of {@code slice}: the bytes {@code b[off, off + len)} and a line break. */
    void write(int slice, byte[] b, int off, int len) throws IOException {
        OutputStream out = member(slice);
        out.write(b, off, len);
        out.write('\n');
        lines[slice]++;
    }

    /** Writes one line of {@code slice} made of {@code pieces} and a line break. */
    void write(int slice, byte[]... pieces) throws IOException {
        OutputStream out = member(slice);
        for (byte[] piece : pieces) {
            out.write(piece);
        }
        out.write('\n');
        lines[slice]++;
    }

    private OutputStream member(int slice) throws IOException {
        if (slice < 0 || slice >= outs.length) {
            throw new IllegalArgumentException("slice " + slice + " is not one of the file's " + outs.length);
        }
        if (outs[slice] == null) {
            files[slice] = Files.createTempFile("vault-slice-", ".gz");
            outs[slice] = DataFiles.gzip(
                    new BufferedOutputStream(Files.newOutputStream(files[slice]), 1 << 16), level, 1 << 14);
        }
        return outs[slice];
    }

    /** Ends every member and copies them, in slice order, to {@code target}; what each slice holds. */
    List<KeySlice> concatenate(OutputStream target) throws IOException {
        var slices = new ArrayList<KeySlice>(outs.length);
        for (int s = 0; s < outs.length; s++) {
            if (outs[s] == null) {
                slices.add(new KeySlice(0, 0));
                continue;
            }
            outs[s].close();
            outs[s] = null;
            long bytes;
            try (var in = Files.newInputStream(files[s])) {
                bytes = in.transferTo(target);
            }
            Files.deleteIfExists(files[s]);
            files[s] = null;
            slices.add(new KeySlice(bytes, lines[s]));
        }
        return slices;
    }

    /** Drops every member. */
    void discard() {
        for (int s = 0; s < outs.length; s++) {
            try {
                if (outs[s] != null) {
                    outs[s].close();
                    outs[s] = null;
                }
                if (files[s] != null) {
                    Files.deleteIfExists(files[s]);
                    files[s] = null;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
