package io.dynarestore.core.vault;

import static io.dynarestore.core.vault.JsonBytes.colon;
import static io.dynarestore.core.vault.JsonBytes.comma;
import static io.dynarestore.core.vault.JsonBytes.isPlain;
import static io.dynarestore.core.vault.JsonBytes.same;
import static io.dynarestore.core.vault.JsonBytes.skipValue;
import static io.dynarestore.core.vault.JsonBytes.space;
import static io.dynarestore.core.vault.JsonBytes.stringEnd;
import static io.dynarestore.core.vault.JsonBytes.typedValue;
import static io.dynarestore.core.vault.JsonBytes.typedValueEnd;

import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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
        return inMembers(b, i + 1, to);
    }

    /**
     * The key among the members of an object written without its braces ({@link ChangeBodies}'s
     * bodies), in {@code b[from, to)}; {@code null} when undecided.
     */
    Map<String, AttributeValue> inMembers(byte[] b, int from, int to) {
        int i = from;
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
}
