package io.dynarestore.core.aws;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A structural scan of JSON bytes: it follows objects, arrays and strings (with their escapes) and
 * gives positions only, decoding no value but the names compared and the strings and numbers asked
 * for. Several times cheaper than tokenizing, for cutting a GetRecords answer ({@link StreamRecordBodies}).
 * A malformed input ends in a {@link RuntimeException} (an index out of bounds, or an
 * {@link IllegalArgumentException} naming the position).
 */
final class JsonScan {

    /**
     * What is done with each member (where its quoted name starts and ends, where its value starts);
     * returns where the value ends. Names are compared as bytes, never decoded.
     */
    interface Member {
        int at(int nameAt, int nameEnd, int value);
    }

    /** What is done with each element of an array (where it starts); returns where it ends. */
    interface Element {
        int at(int start);
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /** Bytes that end a run outside strings: a quote or a bracket. */
    private static final byte[] STRUCTURE = new byte[256];
    /** Bytes that end a run inside a string: its closing quote or a backslash. */
    private static final byte[] IN_STRING = new byte[256];

    static {
        for (char c : "\"{}[]".toCharArray()) {
            STRUCTURE[c] = 1;
        }
        IN_STRING['"'] = 1;
        IN_STRING['\\'] = 1;
    }

    final byte[] json;

    JsonScan(byte[] json) {
        this.json = json;
    }

    int skipSpace(int i) {
        while (i < json.length && (json[i] == ' ' || json[i] == '\n' || json[i] == '\r' || json[i] == '\t')) {
            i++;
        }
        return i;
    }

    int objectMembers(int i, Member member) {
        i = expect(skipSpace(i), '{');
        i = skipSpace(i);
        if (json[i] == '}') {
            return i + 1;
        }
        while (true) {
            int nameAt = i;
            int nameEnd = skipString(i);
            i = expect(skipSpace(nameEnd), ':');
            i = skipSpace(member.at(nameAt, nameEnd, skipSpace(i)));
            if (json[i] == ',') {
                i = skipSpace(i + 1);
            } else {
                return expect(i, '}');
            }
        }
    }

    int arrayElements(int i, Element element) {
        i = skipSpace(expect(skipSpace(i), '['));
        if (json[i] == ']') {
            return i + 1;
        }
        while (true) {
            i = skipSpace(element.at(skipSpace(i)));
            if (json[i] == ',') {
                i = skipSpace(i + 1);
            } else {
                return expect(i, ']');
            }
        }
    }

    /** Where the value starting at {@code i} ends (one past it). */
    int skipValue(int i) {
        byte c = json[i];
        if (c == '"') {
            return skipString(i);
        }
        if (c == '{' || c == '[') {
            byte[] b = json;
            int depth = 0;
            while (true) {
                while (STRUCTURE[b[i] & 0xff] == 0) {
                    i++; // the bytes between strings and brackets, which most images are not
                }
                c = b[i];
                if (c == '"') {
                    i = skipString(i);
                    continue;
                }
                if (c == '{' || c == '[') {
                    depth++;
                } else if (--depth == 0) {
                    return i + 1;
                }
                i++;
            }
        }
        while (i < json.length
                && json[i] != ','
                && json[i] != '}'
                && json[i] != ']'
                && json[i] != ' '
                && json[i] != '\n') {
            i++; // a number, true, false or null
        }
        return i;
    }

    int skipString(int i) {
        expect(i, '"');
        byte[] b = json;
        i++;
        while (true) {
            // eight bytes at a time up to the first quote or backslash (the lowest zero byte of
            // v ^ '"' or v ^ '\\' is exact), then byte by byte to it
            while (i + 8 <= b.length) {
                long v = (long) LONGS.get(b, i);
                long q = v ^ QUOTES;
                long s = v ^ BACKSLASHES;
                long hit = ((q - ONES) & ~q | (s - ONES) & ~s) & HIGHS;
                if (hit != 0) {
                    i += Long.numberOfTrailingZeros(hit) >>> 3;
                    break;
                }
                i += 8;
            }
            while (IN_STRING[b[i] & 0xff] == 0) {
                i++;
            }
            if (b[i] == '"') {
                return i + 1;
            }
            i += 2; // a backslash and the byte it escapes
        }
    }

    /** Whether the quoted name in [{@code at}, {@code end}) is {@code quoted}, byte for byte (no escapes in ours). */
    boolean named(int at, int end, byte[] quoted) {
        return Arrays.equals(json, at, end, quoted, 0, quoted.length);
    }

    String string(int start, int end) {
        if (json[start] != '"') {
            throw new IllegalArgumentException("expected a string at " + start);
        }
        return new String(json, start + 1, end - start - 2, StandardCharsets.UTF_8);
    }

    /** The number in [{@code start}, {@code end}) as written. */
    String number(int start, int end) {
        if (json[start] == '"' || json[start] == '{' || json[start] == '[') {
            throw new IllegalArgumentException("expected a number at " + start);
        }
        return new String(json, start, end - start, StandardCharsets.US_ASCII);
    }

    /** Epoch seconds as the JSON protocol writes a timestamp (1.7645832E9, 1764583200.5, ...), rounded down. */
    long epochSecond(int start, int end) {
        String n = number(start, end);
        boolean digits = !n.isEmpty() && n.length() < 19;
        for (int i = 0; i < n.length() && digits; i++) {
            digits = n.charAt(i) >= '0' && n.charAt(i) <= '9';
        }
        return digits
                ? Long.parseLong(n)
                : new BigDecimal(n).setScale(0, RoundingMode.FLOOR).longValueExact();
    }

    /** The object's bytes as {from, to}; null for an empty one (no image). */
    int[] objectRange(int start, int end) {
        if (json[start] != '{') {
            throw new IllegalArgumentException("expected an object at " + start);
        }
        return skipSpace(start + 1) == end - 1 ? null : new int[] {start, end};
    }

    int expect(int i, char c) {
        if (i >= json.length || json[i] != c) {
            throw new IllegalArgumentException("expected '" + c + "' at " + i);
        }
        return i + 1;
    }
}
