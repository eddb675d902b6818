package io.dynarestore.core.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ItemDigestTest {

    static Stream<Integer> seeds() {
        return IntStream.range(0, 300).boxed();
    }

    /** A random item of every attribute type, nested up to two levels. */
    static Map<String, AttributeValue> item(Random r) {
        var item = new LinkedHashMap<String, AttributeValue>();
        item.put("pk", AttributeValue.fromS("p" + r.nextInt(1000)));
        for (int i = 0; i < 1 + r.nextInt(6); i++) {
            item.put("a" + r.nextInt(20), value(r, 0));
        }
        return item;
    }

    static AttributeValue value(Random r, int depth) {
        return switch (r.nextInt(depth < 2 ? 10 : 8)) {
            case 0 -> AttributeValue.fromS("s" + r.nextInt(100));
            case 1 -> AttributeValue.fromN(r.nextInt(1000) + "." + r.nextInt(10));
            case 2 -> AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {(byte) r.nextInt(), (byte) r.nextInt()}));
            case 3 -> AttributeValue.fromBool(r.nextBoolean());
            case 4 -> AttributeValue.fromNul(true);
            case 5 -> AttributeValue.fromSs(List.of("x" + r.nextInt(5), "y" + r.nextInt(5), "z"));
            case 6 -> AttributeValue.fromNs(List.of(String.valueOf(r.nextInt(50)), "100", "7.5"));
            case 7 ->
                AttributeValue.fromBs(
                        List.of(SdkBytes.fromUtf8String("b" + r.nextInt(9)), SdkBytes.fromUtf8String("c")));
            case 8 -> AttributeValue.fromL(List.of(value(r, depth + 1), value(r, depth + 1)));
            default -> AttributeValue.fromM(Map.of("m" + r.nextInt(3), value(r, depth + 1)));
        };
    }

    /** The same item as DynamoDB may return it: attributes reordered, sets reordered, numbers with trailing zeros. */
    static Map<String, AttributeValue> reshaped(Map<String, AttributeValue> item) {
        var names = new ArrayList<>(item.keySet());
        Collections.reverse(names);
        var copy = new LinkedHashMap<String, AttributeValue>();
        names.forEach(n -> copy.put(n, reshaped(item.get(n))));
        return copy;
    }

    static AttributeValue reshaped(AttributeValue v) {
        return switch (v.type()) {
            case N -> AttributeValue.fromN(v.n() + "0");
            case SS -> AttributeValue.fromSs(reversed(v.ss()));
            case NS -> AttributeValue.fromNs(reversed(v.ns()));
            case BS -> AttributeValue.fromBs(reversed(v.bs()));
            case L ->
                AttributeValue.fromL(
                        v.l().stream().map(ItemDigestTest::reshaped).toList());
            case M -> AttributeValue.fromM(reshaped(v.m()));
            default -> v;
        };
    }

    static <T> List<T> reversed(List<T> list) {
        var copy = new ArrayList<>(list);
        Collections.reverse(copy);
        return copy;
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void itemsDynamoDbCallsTheSameHaveTheSameDigestAndOthersDoNot(int seed) {
        // Given a random item, the same item reshaped, and an item that differs in one value
        Random r = new Random(seed);
        var item = item(r);
        var same = reshaped(item);
        var other = new LinkedHashMap<>(item);
        other.put("pk", AttributeValue.fromS(item.get("pk").s() + "x"));

        // Then the digests agree exactly where ItemEquality does
        assertThat(ItemEquality.same(item, same)).isTrue();
        assertThat(ItemDigest.of(same)).isEqualTo(ItemDigest.of(item));
        assertThat(ItemDigest.of(other)).isNotEqualTo(ItemDigest.of(item));
        // and a delete of a key is not the digest of an item holding only that key
        var key = Map.of("pk", item.get("pk"));
        assertThat(ItemDigest.ofDelete(key)).isNotEqualTo(ItemDigest.of(key));
    }

    @Test
    void aChecksumOfDigestsDoesNotDependOnTheOrderOfItemsAndMissesNoItem() {
        // Given 1,000 random items summed in two orders
        Random r = new Random(7);
        var items = new ArrayList<Map<String, AttributeValue>>();
        for (int i = 0; i < 1_000; i++) {
            items.add(item(r));
        }
        long forward = items.stream().mapToLong(ItemDigest::of).sum();
        Collections.shuffle(items, r);
        long shuffled = items.stream().mapToLong(ItemDigest::of).sum();

        // Then the sums are equal, and leaving one item out changes the sum
        assertThat(shuffled).isEqualTo(forward);
        assertThat(items.subList(1, items.size()).stream()
                        .mapToLong(ItemDigest::of)
                        .sum())
                .isNotEqualTo(forward);
        assertThat(ItemDigest.hex(forward)).hasSize(16);
    }
}
