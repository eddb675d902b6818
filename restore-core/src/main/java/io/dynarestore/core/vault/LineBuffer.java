package io.dynarestore.core.vault;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The lines of an inflated data file, one at a time, in a buffer that grows only to the longest
 * line and never past {@link #MAX_LINE}: data files are JSON Lines, and a JSON string cannot hold a
 * raw newline, so every newline byte ends a line. Blank lines are passed over.
 */
final class LineBuffer {

    /** Twice an item's old and new image at DynamoDB's 400 KB limit, escaped: no line of a backup is longer. */
    static final int MAX_LINE = 4 << 20;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private final InputStream in;
    private byte[] buf = new byte[1 << 16];
    private int pos;
    private int limit;
    private int scanned;
    private boolean eof;

    /** The current line: {@code bytes()[start, end)}. */
    int start;

    int end;

    LineBuffer(InputStream in) {
        this.in = in;
    }

    byte[] bytes() {
        return buf;
    }

    /** Moves to the next line that is not blank; {@code false} at the end of the file. */
    boolean next() throws IOException {
        while (true) {
            int nl = newline(buf, Math.max(pos, scanned), limit);
            if (nl >= 0 || eof) {
                start = pos;
                end = nl >= 0 ? nl : limit;
                pos = nl >= 0 ? nl + 1 : limit;
                scanned = pos;
                if (!blank(start, end)) {
                    return true;
                }
                if (nl < 0) {
                    return false;
                }
                continue;
            }
            scanned = limit;
            fill();
        }
    }

    private void fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            scanned -= pos;
            pos = 0;
        }
        if (limit == buf.length) {
            if (buf.length >= MAX_LINE) {
                throw new LineTooLongException();
            }
            var larger = new byte[Math.min(buf.length * 2, MAX_LINE)];
            System.arraycopy(buf, 0, larger, 0, limit);
            buf = larger;
        }
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
        } else {
            limit += n;
        }
    }

    private boolean blank(int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = buf[i];
            if (c != ' ' && c != '\t' && c != '\r') {
                return false;
            }
        }
        return true;
    }

    /** The first newline in {@code b[from, to)}, or -1; eight bytes at a time. */
    static int newline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(b, i) ^ NEWLINES;
            long zero = (x - ONES) & ~x & HIGHS; // the lowest flagged byte is the first newline
            if (zero != 0) {
                return i + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** A line longer than any backup holds: the file is not a backup. */
    static final class LineTooLongException extends IOException {
        LineTooLongException() {
            super("a line is longer than " + MAX_LINE + " bytes, more than any DynamoDB item's line");
        }
    }
}
