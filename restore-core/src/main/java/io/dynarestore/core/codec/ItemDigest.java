package io.dynarestore.core.codec;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A 64-bit digest of an item (the first 8 bytes of SHA-256 over a canonical encoding), equal for
 * items {@link ItemEquality} calls the same: attributes in name order, numbers as decimals, sets
 * in sorted order. Digests of many items add up (mod 2^64) to a checksum that does not depend on
 * their order, so a segment's checksum can be built line by line and after a resume.
 */
public final class ItemDigest {

    private static final ThreadLocal<MessageDigest> SHA = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    /** The digest of a delete of {@code key}: differs from the digest of any item. */
    private static final byte DELETE = 'D';

    private static final byte ITEM = 'I';

    private ItemDigest() {}

    /** The digest of an item. */
    public static long of(Map<String, AttributeValue> item) {
        return digest(ITEM, item);
    }

    /** The digest of "this key is deleted" (the key attributes only). */
    public static long ofDelete(Map<String, AttributeValue> key) {
        return digest(DELETE, key);
    }

    /** A digest or checksum as 16 hex digits. */
    public static String hex(long digest) {
        return String.format("%016x", digest);
    }

    private static long digest(byte tag, Map<String, AttributeValue> item) {
        MessageDigest sha = SHA.get();
        sha.reset();
        sha.update(tag);
        var out = new StringBuilder();
        writeMap(out, item);
        sha.update(out.toString().getBytes(StandardCharsets.UTF_8));
        return ByteBuffer.wrap(sha.digest()).getLong();
    }

    private static void writeMap(StringBuilder out, Map<String, AttributeValue> map) {
        out.append('{');
        for (var e : new TreeMap<>(map).entrySet()) {
            string(out, e.getKey());
            write(out, e.getValue());
        }
        out.append('}');
    }

    private static void write(StringBuilder out, AttributeValue v) {
        switch (v.type()) {
            case S -> string(out.append('S'), v.s());
            case N -> string(out.append('N'), number(v.n()));
            case B -> string(out.append('B'), Base64.getEncoder().encodeToString(v.b().asByteArrayUnsafe()));
            case BOOL -> out.append(v.bool() ? "T" : "F");
            case NUL -> out.append('0');
            case SS -> sorted(out.append("SS"), new ArrayList<>(v.ss()));
            case NS ->
                sorted(
                        out.append("NS"),
                        new ArrayList<>(v.ns().stream().map(ItemDigest::number).toList()));
            case BS ->
                sorted(
                        out.append("BS"),
                        new ArrayList<>(v.bs().stream()
                                .map(b -> Base64.getEncoder().encodeToString(b.asByteArrayUnsafe()))
                                .toList()));
            case L -> {
                out.append("L[");
                v.l().forEach(e -> write(out, e));
                out.append(']');
            }
            case M -> writeMap(out.append('M'), v.m());
            default -> throw new IllegalArgumentException("an attribute of unknown type " + v.type());
        }
    }

    private static void sorted(StringBuilder out, List<String> values) {
        Collections.sort(values);
        out.append('[');
        values.forEach(s -> string(out, s));
        out.append(']');
    }

    private static void string(StringBuilder out, String s) {
        out.append(s.length()).append(':').append(s);
    }

    private static String number(String n) {
        BigDecimal d = new BigDecimal(n).stripTrailingZeros();
        return d.signum() == 0 ? "0" : d.toPlainString();
    }
}
