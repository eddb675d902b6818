package io.dynarestore.core.pitr;

import io.dynarestore.core.vault.KeySlicer;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Part {@code part} of {@code parts} equal, contiguous slices of the key-hash space, by the top 64
 * bits of a {@link KeyHash} read as an unsigned number: every hash lies in exactly one part, and
 * the parts follow one another in hash order, so that the outputs of parts 0, 1, ... laid end to
 * end are in hash order, as one process would have written them.
 */
public record KeyRange(int part, int parts) {

    /** The whole key space, as one part. */
    public static final KeyRange ALL = new KeyRange(0, 1);

    public KeyRange {
        if (parts < 1 || part < 0 || part >= parts) {
            throw new IllegalArgumentException("part " + part + " of " + parts + " is not a part");
        }
    }

    /** The part a hash falls in: {@code floor(hi * parts / 2^64)}, {@code hi} unsigned. */
    public static int partOf(KeyHash hash, int parts) {
        long hi = hash.hi();
        // the high half of the unsigned 128-bit product hi * parts (Math.unsignedMultiplyHigh is Java 18)
        return (int) (Math.multiplyHigh(hi, parts) + (hi < 0 ? parts : 0));
    }

    public boolean contains(KeyHash hash) {
        return parts == 1 || partOf(hash, parts) == part;
    }

    /**
     * The first and last (inclusive) of {@code slices} equal slices of the key-hash space that share
     * a hash with this range: every hash this range contains lies in one of them.
     */
    public int[] sliceSpan(int slices) {
        // slice i is [i/slices, (i+1)/slices), this range [part/parts, (part+1)/parts)
        int first = (int) ((long) part * slices / parts);
        int last = (int) (((long) (part + 1) * slices + parts - 1) / parts) - 1;
        return new int[] {first, last};
    }

    /** The slicer of data files into {@code count} slices of the key-hash space (ADR 0045): a key's slice is its part of {@code count}. */
    public static KeySlicer slicer(List<String> keyAttributes, int count) {
        var attributes = List.copyOf(keyAttributes);
        return new KeySlicer() {
            @Override
            public List<String> keyAttributes() {
                return attributes;
            }

            @Override
            public int count() {
                return count;
            }

            @Override
            public int sliceOf(Map<String, AttributeValue> key) {
                return partOf(KeyHash.of(key, attributes), count);
            }
        };
    }
}
