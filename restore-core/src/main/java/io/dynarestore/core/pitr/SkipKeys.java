package io.dynarestore.core.pitr;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * A sorted set of {@link KeyHash}es, read from a {@code KEY_HASHES} file (16 bytes per key,
 * big-endian, ascending). Holds 16 bytes per key in memory.
 */
public final class SkipKeys {

    private final long[] hashes;
    private final int size;

    private SkipKeys(long[] hashes, int size) {
        this.hashes = hashes;
        this.size = size;
    }

    public static SkipKeys read(InputStream in, long count) {
        if (count > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException(count + " keys are too many for one skip set");
        }
        long[] hashes = new long[(int) count * 2];
        try (var data = new DataInputStream(new BufferedInputStream(in, 1 << 16))) {
            for (int i = 0; i < hashes.length; i++) {
                hashes[i] = data.readLong();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the skip-key file is shorter than its " + count + " keys", e);
        }
        return new SkipKeys(hashes, (int) count);
    }

    public int size() {
        return size;
    }

    public boolean contains(KeyHash key) {
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int c = Long.compareUnsigned(hashes[2 * mid], key.hi());
            if (c == 0) {
                c = Long.compareUnsigned(hashes[2 * mid + 1], key.lo());
            }
            if (c < 0) {
                low = mid + 1;
            } else if (c > 0) {
                high = mid - 1;
            } else {
                return true;
            }
        }
        return false;
    }
}
