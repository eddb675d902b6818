package io.dynarestore.core.codec;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The size DynamoDB bills an item at, by AWS's published rules: attribute names and strings
 * count their UTF-8 bytes, numbers about one byte per two significant digits plus one, binary
 * its bytes, BOOL and NULL one byte, each list or map 3 bytes plus 1 per element.
 * One write capacity unit covers 1 KB of item.
 */
public final class ItemSize {

    private ItemSize() {}

    public static long of(Map<String, AttributeValue> item) {
        long size = 0;
        for (var e : item.entrySet()) {
            size += utf8(e.getKey()) + of(e.getValue());
        }
        return size;
    }

    /** Write capacity units for one standard write of the item. */
    public static long wcu(long itemBytes) {
        return Math.max(1, (itemBytes + 1023) / 1024);
    }

    static long of(AttributeValue v) {
        switch (v.type()) {
            case S:
                return utf8(v.s());
            case N:
                return number(v.n());
            case B:
                return v.b().asByteArrayUnsafe().length;
            case BOOL:
            case NUL:
                return 1;
            case SS: {
                long n = 0;
                for (String s : v.ss()) {
                    n += utf8(s);
                }
                return n;
            }
            case NS: {
                long n = 0;
                for (String s : v.ns()) {
                    n += number(s);
                }
                return n;
            }
            case BS: {
                long n = 0;
                for (SdkBytes b : v.bs()) {
                    n += b.asByteArrayUnsafe().length;
                }
                return n;
            }
            case L: {
                long n = 3;
                for (AttributeValue e : v.l()) {
                    n += 1 + of(e);
                }
                return n;
            }
            case M: {
                long n = 3;
                for (var e : v.m().entrySet()) {
                    n += 1 + utf8(e.getKey()) + of(e.getValue());
                }
                return n;
            }
            default:
                return 0;
        }
    }

    private static long utf8(String s) {
        // fast path for ASCII, which most names are
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                return s.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return n;
    }

    /** One byte per two significant digits, plus one; leading and trailing zeros are trimmed, as AWS documents. */
    private static long number(String n) {
        int first = -1;
        int last = -1;
        int position = 0;
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            if (c == 'e' || c == 'E') {
                break;
            }
            if (c >= '0' && c <= '9') {
                if (c != '0') {
                    if (first < 0) {
                        first = position;
                    }
                    last = position;
                }
                position++;
            }
        }
        int digits = first < 0 ? 0 : last - first + 1;
        return (digits + 1) / 2 + 1;
    }
}
