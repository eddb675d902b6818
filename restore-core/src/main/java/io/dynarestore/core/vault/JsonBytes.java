package io.dynarestore.core.vault;

import io.dynarestore.core.codec.DynamoJson;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * The byte-level reading of JSON that {@link LineKeys} does without a parser: skipping values,
 * finding the end of a string, the separators between members, and one typed value of a key.
 * Every method answers -1 or {@code null} where the bytes are not what it expects, never guesses;
 * what needs decoding (escapes, non-ASCII text, base64) is decoded by Jackson itself, so that a
 * value reads exactly as the full parse reads it.
 */
final class JsonBytes {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private JsonBytes() {}

    /** The end of a typed value {@code {"S": "..."}} of one string member, or -1. */
    static int typedValueEnd(byte[] b, int i, int to) {
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
    static AttributeValue typedValue(byte[] b, int from, int to) {
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
    static String plainText(byte[] b, int from, int to) {
        return isPlain(b, from, to) ? new String(b, from, to - from, StandardCharsets.ISO_8859_1) : null;
    }

    static boolean isPlain(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c < 0x20 || c == '\\' || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** The JSON string token {@code b[from, to)} as the full parse reads it, or {@code null} where it fails. */
    static String parsedString(byte[] b, int from, int to) {
        try (JsonParser p = DynamoJson.parser(b, from, to - from)) {
            return p.nextToken() == JsonToken.VALUE_STRING ? p.getString() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    static byte[] parsedBinary(byte[] b, int from, int to) {
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
    static int colon(byte[] b, int i, int to) {
        i = space(b, i, to);
        if (i >= to || b[i] != ':') {
            return -1;
        }
        return space(b, i + 1, to);
    }

    /** Past the spaces and the comma after a member: the next name's quote, the object's end, or -1. */
    static int comma(byte[] b, int i, int to) {
        if (i < 0) {
            return -1;
        }
        i = space(b, i, to);
        if (i < to && b[i] == ',') {
            return space(b, i + 1, to);
        }
        return i < to && b[i] == '}' ? to : -1;
    }

    static int space(byte[] b, int i, int to) {
        while (i < to && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
            i++;
        }
        return i;
    }

    static boolean same(byte[] b, int from, int to, byte[] name) {
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
