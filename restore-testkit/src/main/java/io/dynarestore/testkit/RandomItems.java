package io.dynarestore.testkit;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Seeded, reproducible items of every DynamoDB type: the item at index {@code i} depends only
 * on the seed and {@code i}, so a test can regenerate what it expects instead of holding it.
 * Keys are unique per index; index key attributes are present on most items (absent on some,
 * which makes the indexes sparse, as real ones are). Numbers are canonical (as DynamoDB returns
 * them) so that items read back compare equal.
 */
public final class RandomItems {

    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 #-_.:/é日本€";

    private final long seed;
    private final Shape shape;

    public RandomItems(long seed, Shape shape) {
        this.seed = seed;
        this.shape = shape;
    }

    public Shape shape() {
        return shape;
    }

    /**
     * The key attributes of a table and its indexes.
     *
     * @param partitionKey name of the table's partition key
     * @param partitionType S, N or B
     * @param sortKey name of the sort key, or {@code null}
     * @param sortType S, N or B
     * @param indexKeys name to type of each index key attribute that is not a table key
     */
    public record Shape(
            String partitionKey, String partitionType, String sortKey, String sortType, Map<String, String> indexKeys) {
        public static Shape simple() {
            return new Shape("pk", "S", "sk", "N", Map.of());
        }
    }

    public Map<String, AttributeValue> item(long index) {
        return item(index, 0);
    }

    /** The item at {@code index}, in its {@code version}-th variant (same key, other values). */
    public Map<String, AttributeValue> item(long index, int version) {
        Random r = new Random(seed * 1_000_003L + index * 31L + version);
        var item = new LinkedHashMap<String, AttributeValue>();
        // seven items share a partition key when there is a sort key to tell them apart
        item.put(
                shape.partitionKey(),
                keyValue(shape.partitionType(), "p" + (shape.sortKey() == null ? index : index / 7)));
        if (shape.sortKey() != null) {
            item.put(shape.sortKey(), keyValue(shape.sortType(), String.valueOf(index % 7)));
        }
        shape.indexKeys().forEach((name, type) -> {
            if (r.nextInt(10) > 0) {
                item.put(name, keyValue(type, "i" + r.nextInt(1000)));
            }
        });
        int attributes = 2 + r.nextInt(9);
        for (int i = 0; i < attributes; i++) {
            item.put("a" + r.nextInt(30), value(r, 0));
        }
        return item;
    }

    /** A large item (about {@code bytes} bytes), as the 400 KB DynamoDB limit allows. */
    public Map<String, AttributeValue> largeItem(long index, int bytes) {
        var item = item(index);
        var sb = new StringBuilder(bytes);
        Random r = new Random(seed + index);
        while (sb.length() < bytes) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        item.put("large", AttributeValue.fromS(sb.toString()));
        return item;
    }

    private static AttributeValue keyValue(String type, String text) {
        return switch (type) {
            case "S" -> AttributeValue.fromS(text);
            // the digits of the text: distinct texts of one kind ("p12", "p13") give distinct numbers
            case "N" ->
                AttributeValue.fromN(
                        text.replaceAll("\\D", "").isEmpty()
                                ? "0"
                                : new BigInteger(text.replaceAll("\\D", "")).toString());
            case "B" -> AttributeValue.fromB(SdkBytes.fromByteArray(text.getBytes(StandardCharsets.UTF_8)));
            default -> throw new IllegalArgumentException("key type " + type);
        };
    }

    private AttributeValue value(Random r, int depth) {
        int kind = r.nextInt(depth >= 3 ? 9 : 11);
        switch (kind) {
            case 0:
                return AttributeValue.fromS(string(r, 1 + r.nextInt(40)));
            case 1:
                return AttributeValue.fromN(number(r));
            case 2:
                return AttributeValue.fromB(SdkBytes.fromByteArray(bytes(r, 1 + r.nextInt(40))));
            case 3:
                return AttributeValue.fromBool(r.nextBoolean());
            case 4:
                return AttributeValue.fromNul(true);
            case 5: {
                var set = new LinkedHashSet<String>();
                int n = 1 + r.nextInt(5);
                while (set.size() < n) {
                    set.add(string(r, 1 + r.nextInt(12)));
                }
                return AttributeValue.fromSs(new ArrayList<>(set));
            }
            case 6: {
                var set = new LinkedHashSet<String>();
                var seen = new HashSet<BigDecimal>();
                int n = 1 + r.nextInt(5);
                while (set.size() < n) {
                    String x = number(r);
                    if (seen.add(new BigDecimal(x).stripTrailingZeros())) {
                        set.add(x);
                    }
                }
                return AttributeValue.fromNs(new ArrayList<>(set));
            }
            case 7: {
                var set = new LinkedHashMap<String, SdkBytes>();
                int n = 1 + r.nextInt(4);
                while (set.size() < n) {
                    byte[] b = bytes(r, 1 + r.nextInt(16));
                    set.put(Base64.getEncoder().encodeToString(b), SdkBytes.fromByteArray(b));
                }
                return AttributeValue.fromBs(new ArrayList<>(set.values()));
            }
            case 8:
                return AttributeValue.fromS(string(r, 1 + r.nextInt(200)));
            case 9: {
                var map = new LinkedHashMap<String, AttributeValue>();
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) {
                    map.put("m" + r.nextInt(20), value(r, depth + 1));
                }
                return AttributeValue.fromM(map);
            }
            default: {
                var list = new ArrayList<AttributeValue>();
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) {
                    list.add(value(r, depth + 1));
                }
                return AttributeValue.fromL(list);
            }
        }
    }

    private static String string(Random r, int length) {
        var sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }

    private static byte[] bytes(Random r, int length) {
        byte[] b = new byte[length];
        r.nextBytes(b);
        return b;
    }

    /** A canonical decimal: integers, decimals and large or tiny magnitudes, as DynamoDB prints them. */
    private static String number(Random r) {
        BigDecimal d = switch (r.nextInt(5)) {
            case 0 -> BigDecimal.valueOf(r.nextInt(2_000_001) - 1_000_000L);
            case 1 -> BigDecimal.valueOf(r.nextLong(), r.nextInt(10));
            case 2 -> new BigDecimal(new BigInteger(120, r), r.nextInt(38)).negate();
            case 3 -> BigDecimal.valueOf(r.nextInt(1000), -r.nextInt(20));
            default -> BigDecimal.valueOf(r.nextInt(1_000_000) + 1L, 30 + r.nextInt(8));
        };
        d = d.stripTrailingZeros();
        // DynamoDB keeps at most 38 significant digits
        if (d.precision() > 38) {
            d = d.round(new MathContext(38)).stripTrailingZeros();
        }
        return d.signum() == 0 ? "0" : d.toPlainString();
    }

    /** Every index from {@code 0} to {@code count - 1}. */
    public List<Map<String, AttributeValue>> items(int count) {
        var list = new ArrayList<Map<String, AttributeValue>>(count);
        for (int i = 0; i < count; i++) {
            list.add(item(i));
        }
        return list;
    }
}
