package io.dynarestore.core.pitr;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A 128-bit hash of an item's primary key (the first half of SHA-256 over a canonical encoding),
 * equal for keys DynamoDB treats as equal: numbers are compared as decimals ({@code 1.0} and
 * {@code 1} are one key). Ordered as unsigned 128-bit numbers.
 */
public record KeyHash(long hi, long lo) implements Comparable<KeyHash> {

    private static final ThreadLocal<MessageDigest> SHA = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    /** The hash of {@code item}'s key, or of a key map holding only the key attributes. */
    public static KeyHash of(Map<String, AttributeValue> item, List<String> keyAttributes) {
        MessageDigest sha = SHA.get();
        sha.reset();
        for (String name : keyAttributes) {
            AttributeValue v = item.get(name);
            if (v == null) {
                throw new IllegalArgumentException("the item lacks key attribute " + name);
            }
            byte[] bytes;
            byte tag;
            switch (v.type()) {
                case S -> {
                    tag = 'S';
                    bytes = v.s().getBytes(StandardCharsets.UTF_8);
                }
                case N -> {
                    tag = 'N';
                    BigDecimal d = new BigDecimal(v.n()).stripTrailingZeros();
                    bytes = (d.signum() == 0 ? "0" : d.toPlainString()).getBytes(StandardCharsets.UTF_8);
                }
                case B -> {
                    tag = 'B';
                    bytes = v.b().asByteArrayUnsafe();
                }
                default ->
                    throw new IllegalArgumentException(
                            "key attribute " + name + " is of type " + v.type() + "; keys are S, N or B");
            }
            sha.update(tag);
            sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
            sha.update(bytes);
        }
        ByteBuffer digest = ByteBuffer.wrap(sha.digest());
        return new KeyHash(digest.getLong(), digest.getLong());
    }

    /** The bucket of this hash among {@code 2^bits} buckets: its top bits, so buckets are in hash order. */
    public int bucket(int bits) {
        return bits == 0 ? 0 : (int) (hi >>> (64 - bits));
    }

    @Override
    public int compareTo(KeyHash o) {
        int c = Long.compareUnsigned(hi, o.hi);
        return c != 0 ? c : Long.compareUnsigned(lo, o.lo);
    }
}
