package io.dynarestore.core.pitr;

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
}
