package io.dynarestore.core.vault;

import io.dynarestore.core.codec.DynamoJson;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Finds the key attributes of one data-file line by scanning its bytes instead of parsing it: the
 * members of {@code Keys} (a change line) or {@code Item} (a full-export line), on the first level
 * of that object only, so that an attribute of the same name inside a map or list is never taken
 * for the key. It answers {@code null}, undecided, for anything it cannot read with certainty (an
 * escaped attribute name, a key that is not an S, N or B string, a missing key, a line that is not
 * one object), and the caller then parses the line in full: the scan can spare work, never change
 * what a line means. Where a name appears twice in one object, the first is taken.
 */
final class LineKeys {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private final byte[] member;
    private final String[] names;
    private final byte[][] utf8;
    // each key attribute's last typed value and its bytes: a scan returns the items of one partition
    // key together, so consecutive lines mostly repeat it
    private final byte[][] lastBytes;
    private final int[] lastLength;
    private final AttributeValue[] lastValue;
    private final LineKey key;
    // the name nextName read last: b[nameStart, nameEnd)
    private int nameStart;
    private int nameEnd;

    /** Finds {@code keyNames} in the line's {@code member}: {@code Item} in a full export, {@code Keys} in changes. */
    LineKeys(String member, List<String> keyNames) {
        this.member = member.getBytes(StandardCharsets.UTF_8);
        this.names = keyNames.toArray(String[]::new);
        this.utf8 = new byte[names.length][];
        this.lastBytes = new byte[names.length][64];
        this.lastLength = new int[names.length];
        this.lastValue = new AttributeValue[names.length];
        for (int k = 0; k < names.length; k++) {
            utf8[k] = names[k].getBytes(StandardCharsets.UTF_8);
        }
        this.key = new LineKey();
    }

    /**
     * The key of the line in {@code b[from, to)}, or {@code null} when undecided; the map is this
     * scanner's own and holds until the next call.
     */
    Map<String, AttributeValue> find(byte[] b, int from, int to) {
        int i = space(b, from, to);
        if (i >= to || b[i] != '{') {
            return null;
        }
        i++;
        while (true) {
            i = nextName(b, i, to);
            if (i < 0) {
                return null; // the end of the line's object, or not JSON: the member is not there
            }
            if (same(b, nameStart, nameEnd, member)) {
                return keysIn(b, i, to);
            }
            i = comma(b, skipValue(b, i, to), to);
            if (i < 0) {
                return null;
            }
        }
    }

    /**
     * Reads the member name at or after {@code b[i]} into {@code nameStart} and {@code nameEnd}
     * (its closing quote); the index of the member's value, or -1 where no name is there.
     */
    private int nextName(byte[] b, int i, int to) {
        i = space(b, i, to);
        if (i >= to || b[i] != '"') {
            return -1;
        }
        nameStart = i + 1;
        nameEnd = stringEnd(b, nameStart, to);
        return nameEnd < 0 ? -1 : colon(b, nameEnd + 1, to);
    }

    /** The key attributes among the members of the object at {@code b[i]}. */
    private Map<String, AttributeValue> keysIn(byte[] b, int i, int to) {
        if (i >= to || b[i] != '{') {
            return null;
        }
        key.reset(b);
        int count = 0;
        i++;
        while (true) {
            i = nextName(b, i, to);
            if (i < 0) {
                return null; // the object ended before every key attribute was seen
            }
            int k = keyIndex(b, nameStart, nameEnd);
            if (k == -2) {
                return null; // an escaped name might spell a key's name
            }
            if (k >= 0 && !key.has(k)) {
                int end = typedValueEnd(b, i, to);
                if (end < 0 || !key.set(k, i, end)) {
                    return null;
                }
                if (++count == names.length) {
                    return key;
                }
                i = comma(b, end, to);
            } else {
                i = comma(b, skipValue(b, i, to), to);
            }
            if (i < 0) {
                return null;
            }
        }
    }

    /**
     * The key of the line being scanned, one instance for every line, valid until the next: its
     * values are decoded when they are asked for, as a prefilter mostly rejects a line on its
     * partition key alone. What could fail to decode (escapes, non-ASCII, base64) is decoded at
     * once, so that such a line stays undecided instead of failing later.
     */
    private final class LineKey extends AbstractMap<String, AttributeValue> {

        private final int[] from = new int[names.length];
        private final int[] to = new int[names.length];
        private final AttributeValue[] values = new AttributeValue[names.length];
        private byte[] b;

        void reset(byte[] bytes) {
            b = bytes;
            Arrays.fill(to, 0);
            Arrays.fill(values, null);
        }

        boolean has(int k) {
            return to[k] != 0;
        }

        /** Notes key {@code k}'s typed value at {@code b[start, end)}; {@code false} where it is not one. */
        boolean set(int k, int start, int end) {
            from[k] = start;
            to[k] = end;
            if (cached(k) != null) {
                return true;
            }
            int valueStart = colon(b, stringEnd(b, space(b, start + 1, end) + 1, end) + 1, end) + 1;
            if (isPlain(b, valueStart, stringEnd(b, valueStart, end)) && isStringType(start, end)) {
                return true; // decoded when asked for
            }
            values[k] = decode(k);
            return values[k] != null;
        }

        private boolean isStringType(int start, int end) {
            int typeStart = space(b, start + 1, end) + 1;
            return stringEnd(b, typeStart, end) == typeStart + 1 && (b[typeStart] == 'S' || b[typeStart] == 'N');
        }

        private AttributeValue cached(int k) {
            int length = to[k] - from[k];
            if (lastValue[k] != null
                    && length == lastLength[k]
                    && Arrays.equals(b, from[k], to[k], lastBytes[k], 0, length)) {
                values[k] = lastValue[k];
                return values[k];
            }
            return null;
        }

        private AttributeValue decode(int k) {
            AttributeValue v = typedValue(b, from[k], to[k]);
            int length = to[k] - from[k];
            if (v != null && length <= lastBytes[k].length) {
                System.arraycopy(b, from[k], lastBytes[k], 0, length);
                lastLength[k] = length;
                lastValue[k] = v;
            }
            return v;
        }

        @Override
        public AttributeValue get(Object name) {
            for (int k = 0; k < names.length; k++) {
                if (names[k].equals(name)) {
                    if (values[k] == null) {
                        values[k] = decode(k);
                    }
                    return values[k];
                }
            }
            return null;
        }

        @Override
        public boolean containsKey(Object name) {
            return Arrays.asList(names).contains(name);
        }

        @Override
        public Set<Entry<String, AttributeValue>> entrySet() {
            var entries = new LinkedHashMap<String, AttributeValue>(names.length * 2);
            for (String name : names) {
                entries.put(name, get(name));
            }
            return entries.entrySet();
        }
    }

    /** Which key the name in {@code b[from, to)} is: its index, -1 for none, -2 when the name holds an escape. */
    private int keyIndex(byte[] b, int from, int to) {
        for (int k = 0; k < utf8.length; k++) {
            if (same(b, from, to, utf8[k])) {
                return k;
            }
        }
        for (int i = from; i < to; i++) {
            if (b[i] == '\\') {
                return -2;
            }
        }
        return -1;
    }

    /** The end of a typed value {@code {"S": "..."}} of one string member, or -1. */
    private static int typedValueEnd(byte[] b, int i, int to) {
        if (i >= to || b[i] != '{') {
            return -1;
        }
        i = space(b, i + 1, to);
        if (i >= to || b[i] != '"') {
            return -1;
        }
        int typeEnd = stringEnd(b, i + 1, to);
        if (typeEnd < 0) {
            return -1;
        }
        i = colon(b, typeEnd + 1, to);
        if (i < 0 || i >= to || b[i] != '"') {
            return -1; // a bare JSON number, or not a string: the full parse decides
        }
        int valueEnd = stringEnd(b, i + 1, to);
        if (valueEnd < 0) {
            return -1;
        }
        i = space(b, valueEnd + 1, to);
        return i < to && b[i] == '}' ? i + 1 : -1;
    }

    /** The value of the typed value in {@code b[from, to)}, which {@link #typedValueEnd} found well formed. */
    private static AttributeValue typedValue(byte[] b, int from, int to) {
        int typeStart = space(b, from + 1, to) + 1;
        int typeEnd = stringEnd(b, typeStart, to);
        if (typeEnd - typeStart != 1) {
            return null;
        }
        byte type = b[typeStart];
        int valueStart = colon(b, typeEnd + 1, to);
        int valueEnd = stringEnd(b, valueStart + 1, to);
        switch (type) {
            case 'S':
            case 'N': {
                String text = plainText(b, valueStart + 1, valueEnd);
                if (text == null) {
                    text = parsedString(b, valueStart, valueEnd + 1);
                }
                return text == null ? null : type == 'S' ? AttributeValue.fromS(text) : AttributeValue.fromN(text);
            }
            case 'B': {
                byte[] bytes = parsedBinary(b, valueStart, valueEnd + 1);
                return bytes == null ? null : AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(bytes));
            }
            default:
                return null;
        }
    }

    /** Printable ASCII without escapes, read as is; anything else is {@code null}, left to the JSON parser. */
    private static String plainText(byte[] b, int from, int to) {
        return isPlain(b, from, to) ? new String(b, from, to - from, StandardCharsets.ISO_8859_1) : null;
    }

    private static boolean isPlain(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c < 0x20 || c == '\\' || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** The JSON string token {@code b[from, to)} as the full parse reads it, or {@code null} where it fails. */
    private static String parsedString(byte[] b, int from, int to) {
        try (JsonParser p = DynamoJson.parser(b, from, to - from)) {
            return p.nextToken() == JsonToken.VALUE_STRING ? p.getString() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static byte[] parsedBinary(byte[] b, int from, int to) {
        try (JsonParser p = DynamoJson.parser(b, from, to - from)) {
            return p.nextToken() == JsonToken.VALUE_STRING ? p.getBinaryValue() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The index after the value at {@code b[i]} (a string, object, array or literal), or -1. */
    static int skipValue(byte[] b, int i, int to) {
        if (i < 0 || i >= to) {
            return -1;
        }
        byte c = b[i];
        if (c == '"') {
            int end = stringEnd(b, i + 1, to);
            return end < 0 ? -1 : end + 1;
        }
        if (c == '{' || c == '[') {
            int depth = 0;
            for (; i < to; i++) {
                c = b[i];
                if (c == '"') {
                    i = stringEnd(b, i + 1, to);
                    if (i < 0) {
                        return -1;
                    }
                } else if (c == '{' || c == '[') {
                    depth++;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return i + 1;
                }
            }
            return -1;
        }
        while (i < to && (c = b[i]) != ',' && c != '}' && c != ']' && c > ' ') {
            i++;
        }
        return i;
    }

    /**
     * The index of the quote that closes the string whose first byte is {@code b[i]}, or -1; eight
     * bytes at a time to the next quote or backslash, as strings are most of a line's bytes.
     */
    static int stringEnd(byte[] b, int i, int to) {
        while (i < to) {
            if (i + 8 <= to) {
                long w = (long) LONGS.get(b, i);
                long q = w ^ QUOTES;
                long e = w ^ BACKSLASHES;
                long flagged = ((q - ONES) & ~q | (e - ONES) & ~e) & HIGHS; // the lowest is the first
                if (flagged == 0) {
                    i += 8;
                    continue;
                }
                i += Long.numberOfTrailingZeros(flagged) >>> 3;
            }
            byte c = b[i];
            if (c == '"') {
                return i;
            }
            i += c == '\\' ? 2 : 1;
        }
        return -1;
    }

    /** Past the spaces and the colon after a name: the index of the value, or -1. */
    private static int colon(byte[] b, int i, int to) {
        i = space(b, i, to);
        if (i >= to || b[i] != ':') {
            return -1;
        }
        return space(b, i + 1, to);
    }

    /** Past the spaces and the comma after a member: the next name's quote, the object's end, or -1. */
    private static int comma(byte[] b, int i, int to) {
        if (i < 0) {
            return -1;
        }
        i = space(b, i, to);
        if (i < to && b[i] == ',') {
            return space(b, i + 1, to);
        }
        return i < to && b[i] == '}' ? to : -1;
    }

    private static int space(byte[] b, int i, int to) {
        while (i < to && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
            i++;
        }
        return i;
    }

    private static boolean same(byte[] b, int from, int to, byte[] name) {
        if (to - from != name.length) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (b[from + i] != name[i]) {
                return false;
            }
        }
        return true;
    }
}
