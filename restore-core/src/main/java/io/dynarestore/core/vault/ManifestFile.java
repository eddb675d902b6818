package io.dynarestore.core.vault;

import java.util.List;

/**
 * One line of {@code manifest-files.json}: a data file, its item count, the base64 MD5 of the
 * object and its ETag. {@code dataFileS3Key} is a key in the export's bucket.
 *
 * <p>{@code keySlices} is ours (ADR 0045), absent from native exports: where present, the file is
 * one gzip member per equal slice of the key-hash space, in hash order, and each slice says its
 * length in bytes and its lines, so that a reader of some slices reads only their bytes.
 */
public record ManifestFile(
        Long itemCount, String md5Checksum, String etag, String dataFileS3Key, List<KeySlice> keySlices) {

    public ManifestFile {
        keySlices = keySlices == null ? null : List.copyOf(keySlices);
    }

    /** A native export's file: no slices. */
    public ManifestFile(Long itemCount, String md5Checksum, String etag, String dataFileS3Key) {
        this(itemCount, md5Checksum, etag, dataFileS3Key, null);
    }

    /** The same file found at another key. */
    public ManifestFile at(String key) {
        return new ManifestFile(itemCount, md5Checksum, etag, key, keySlices);
    }

    /**
     * Where slices {@code first} to {@code last} (inclusive) of a sliced file lie: they follow one
     * another, so they are one range of bytes.
     */
    public SliceSpan span(int first, int last) {
        if (keySlices == null || first < 0 || last >= keySlices.size() || first > last) {
            throw new IllegalArgumentException("slices " + first + ".." + last + " are not slices of " + dataFileS3Key);
        }
        long offset = 0;
        for (int s = 0; s < first; s++) {
            offset += keySlices.get(s).bytes();
        }
        long length = 0;
        long items = 0;
        for (int s = first; s <= last; s++) {
            length += keySlices.get(s).bytes();
            items += keySlices.get(s).items();
        }
        return new SliceSpan(offset, length, items);
    }

    /** A run of slices: its first byte in the file, its length, its lines. */
    public record SliceSpan(long offset, long length, long items) {
        /** The HTTP range of its bytes (inclusive); only where it has any. */
        public String httpRange() {
            return "bytes=" + offset + "-" + (offset + length - 1);
        }
    }

    /** One slice of a file's key-hash space: its gzip member's length and the lines in it (0 and 0: none). */
    public record KeySlice(long bytes, long items) {}
}
