package io.dynarestore.planner.staging;

import io.dynarestore.core.pitr.KeyHash;

/**
 * A Bloom filter of key hashes: {@link #mayContain} is {@code true} for every hash added, and for
 * others with a small probability that grows once more keys are added than it was sized for. Its
 * size is fixed when it is made, so its memory is bounded whatever is added.
 *
 * <p>The {@code k} probes are {@code hi + i * lo} (Kirsch and Mitzenmacher): a key hash is 128
 * well-mixed bits already, so no second hash is computed.
 */
final class KeyHashFilter {

    private final long[] words;
    private final long bits;
    private final int probes;

    private KeyHashFilter(long bits, int probes) {
        this.words = new long[(int) ((bits + 63) / 64)];
        this.bits = words.length * 64L;
        this.probes = probes;
    }

    /**
     * A filter for {@code keys} keys at about 10 bits a key (1% false positives), in at most
     * {@code maxBytes} bytes (more false positives beyond that, never a false negative).
     */
    static KeyHashFilter sizedFor(long keys, long maxBytes) {
        long wanted = Math.max(64, keys * 10);
        long cap = Math.max(64, Math.min(maxBytes, Integer.MAX_VALUE / 2L) * 8);
        long bits = Math.min(wanted, cap);
        int probes = (int) Math.max(1, Math.min(7, Math.round((double) bits / Math.max(1, keys) * Math.log(2))));
        return new KeyHashFilter(bits, probes);
    }

    void add(KeyHash key) {
        long h = key.hi();
        for (int i = 0; i < probes; i++, h += key.lo()) {
            long bit = Math.floorMod(h, bits);
            words[(int) (bit >>> 6)] |= 1L << bit;
        }
    }

    boolean mayContain(KeyHash key) {
        long h = key.hi();
        for (int i = 0; i < probes; i++, h += key.lo()) {
            long bit = Math.floorMod(h, bits);
            if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Its size in bytes. */
    long bytes() {
        return words.length * 8L;
    }
}
