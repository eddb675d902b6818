package io.dynarestore.core.vault;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * What a {@link java.util.zip.GZIPInputStream} reads a file of several gzip members through, so
 * that it reads every member. After a member's trailer it looks for the next only where
 * {@code available()} says there are bytes, and a network stream may say 0 between two packets:
 * the rest of the file would then be dropped without an error. Here {@code available()} reads one
 * byte ahead when the stream below cannot tell, so it answers 0 only at the end of the stream.
 */
final class EveryMember extends FilterInputStream {

    private static final int NONE = -2;
    private static final int END = -1;

    /** The byte read ahead, {@link #NONE} or {@link #END}. */
    private int ahead = NONE;

    EveryMember(InputStream in) {
        super(in);
    }

    @Override
    public int available() throws IOException {
        if (ahead != NONE) {
            return ahead == END ? 0 : 1;
        }
        int n = in.available();
        if (n > 0) {
            return n;
        }
        ahead = in.read();
        return ahead == END ? 0 : 1;
    }

    @Override
    public int read() throws IOException {
        if (ahead == NONE) {
            return in.read();
        }
        int b = ahead;
        if (b != END) {
            ahead = NONE;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (ahead == NONE || len == 0) {
            return in.read(b, off, len);
        }
        if (ahead == END) {
            return -1;
        }
        b[off] = (byte) ahead;
        ahead = NONE;
        return 1;
    }

    @Override
    public long skip(long n) throws IOException {
        if (ahead == NONE || n <= 0) {
            return in.skip(n);
        }
        if (ahead == END) {
            return 0;
        }
        ahead = NONE;
        return 1;
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
