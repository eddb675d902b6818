package io.dynarestore.core.codec;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Whether two items are the same to DynamoDB: numbers equal as decimals ({@code 1.50} is
 * {@code 1.5}), sets equal whatever their order, lists and maps element by element.
 */
public final class ItemEquality {

    private ItemEquality() {}

    public static boolean same(Map<String, AttributeValue> a, Map<String, AttributeValue> b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.size() != b.size()) {
            return false;
        }
        for (var e : a.entrySet()) {
            if (!same(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    public static boolean same(AttributeValue a, AttributeValue b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.type() != b.type()) {
            return false;
        }
        return switch (a.type()) {
            case S -> a.s().equals(b.s());
            case N -> new BigDecimal(a.n()).compareTo(new BigDecimal(b.n())) == 0;
            case B -> a.b().equals(b.b());
            case BOOL -> a.bool().equals(b.bool());
            case NUL -> true;
            case SS -> new HashSet<>(a.ss()).equals(new HashSet<>(b.ss()));
            case NS -> decimals(a.ns()).equals(decimals(b.ns()));
            case BS -> new HashSet<SdkBytes>(a.bs()).equals(new HashSet<SdkBytes>(b.bs()));
            case L -> sameList(a.l(), b.l());
            case M -> same(a.m(), b.m());
            default -> a.equals(b);
        };
    }

    private static boolean sameList(List<AttributeValue> a, List<AttributeValue> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!same(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static HashSet<BigDecimal> decimals(List<String> numbers) {
        var set = new HashSet<BigDecimal>();
        numbers.forEach(n -> set.add(new BigDecimal(n).stripTrailingZeros()));
        return set;
    }

    /** The attributes added, removed or changed from {@code before} to {@code after} (either may be null), by name. */
    public static List<String> changedAttributes(
            Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        var names = new TreeSet<String>();
        if (before != null) {
            names.addAll(before.keySet());
        }
        if (after != null) {
            names.addAll(after.keySet());
        }
        names.removeIf(n -> same(before == null ? null : before.get(n), after == null ? null : after.get(n)));
        return List.copyOf(names);
    }
}
