package io.dynarestore.core.filter;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The records a record restore selects, evaluated on an item's image: it matches when any key
 * filter matches (its partition-key condition and, if given, its sort-key condition) and every
 * attribute filter matches. Comparisons follow DynamoDB: numbers as decimals, binary as unsigned
 * bytes, strings as UTF-8 bytes; a value of another type than the filter's never compares
 * (so {@code EqualTo} is false and {@code NotEqualTo} true); {@code Contains} finds a substring,
 * a byte sequence, or a member of a set. The one evaluator of preview, writers and exporters.
 */
public final class RecordFilter {

    static final Set<String> CONDITIONS = Set.of(
            "EqualTo",
            "NotEqualTo",
            "LessThan",
            "LessThanOrEqualTo",
            "GreaterThan",
            "GreaterThanOrEqualTo",
            "Between",
            "Exists",
            "NotExists",
            "Contains",
            "NotContains",
            "BeginsWith");
    private static final Set<String> ORDERED =
            Set.of("LessThan", "LessThanOrEqualTo", "GreaterThan", "GreaterThanOrEqualTo", "Between");
    private static final Set<String> TEXTUAL = Set.of("Contains", "NotContains", "BeginsWith");

    private final List<KeyClause> keyClauses;
    private final List<AttributeClause> attributeClauses;

    private RecordFilter(List<KeyClause> keyClauses, List<AttributeClause> attributeClauses) {
        this.keyClauses = keyClauses;
        this.attributeClauses = attributeClauses;
    }

    private record KeyClause(String pk, Predicate<AttributeValue> pkTest, String sk, Predicate<AttributeValue> skTest) {
        boolean matches(Map<String, AttributeValue> item) {
            return pkTest.test(item.get(pk)) && (skTest == null || skTest.test(item.get(sk)));
        }
    }

    private record AttributeClause(String name, Predicate<AttributeValue> test) {}

    public boolean matches(Map<String, AttributeValue> item) {
        boolean keyMatch = false;
        for (KeyClause k : keyClauses) {
            if (k.matches(item)) {
                keyMatch = true;
                break;
            }
        }
        if (!keyMatch) {
            return false;
        }
        for (AttributeClause a : attributeClauses) {
            if (!a.test().test(item.get(a.name()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether an item with this key may match: some key filter matches the key. {@code false} means
     * no image of the key matches, whatever its other attributes, so its lines need not be parsed.
     */
    public boolean keyMayMatch(Map<String, AttributeValue> key) {
        for (KeyClause k : keyClauses) {
            if (k.matches(key)) {
                return true;
            }
        }
        return false;
    }

    /** Compiles the filters of a record restore against a table's key, or says what is wrong with each. */
    public static RecordFilter compile(Scope.Records records, KeySchema key) {
        var errors = new ArrayList<FieldError>();
        var keyClauses = new ArrayList<KeyClause>();
        var attributeClauses = new ArrayList<AttributeClause>();
        List<Scope.KeyFilter> keyFilters = records.keyFilters() == null ? List.of() : records.keyFilters();
        if (keyFilters.isEmpty()) {
            errors.add(new FieldError(
                    "/scope/keyFilters",
                    "a record restore needs at least one partition-key filter, "
                            + "such as {\"partitionKey\": {\"condition\": \"EqualTo\", \"values\": [\"...\"]}}"));
        }
        for (int i = 0; i < keyFilters.size(); i++) {
            Scope.KeyFilter f = keyFilters.get(i);
            String at = "/scope/keyFilters/" + i;
            if (f.partitionKey() == null) {
                errors.add(new FieldError(at + "/partitionKey", "each key filter needs a partitionKey condition"));
                continue;
            }
            var pk = keyCondition(
                    at + "/partitionKey", f.partitionKey(), key.partitionKey(), key.partitionType(), errors);
            Predicate<AttributeValue> sk = null;
            if (f.sortKey() != null) {
                if (key.sortKey() == null) {
                    errors.add(new FieldError(
                            at + "/sortKey",
                            "the table has no sort key (its key is "
                                    + key.partitionKey() + " alone); remove sortKey or filter that attribute under "
                                    + "attributeFilters"));
                } else {
                    sk = keyCondition(at + "/sortKey", f.sortKey(), key.sortKey(), key.sortType(), errors);
                }
            }
            if (pk != null) {
                keyClauses.add(new KeyClause(key.partitionKey(), pk, key.sortKey(), sk));
            }
        }
        List<Scope.AttributeFilter> attributeFilters =
                records.attributeFilters() == null ? List.of() : records.attributeFilters();
        for (int i = 0; i < attributeFilters.size(); i++) {
            Scope.AttributeFilter f = attributeFilters.get(i);
            String at = "/scope/attributeFilters/" + i;
            if (f.name() == null || f.name().isEmpty()) {
                errors.add(new FieldError(at + "/name", "name the attribute to filter on"));
                continue;
            }
            var test = condition(at, f.condition(), f.type(), f.values(), false, errors);
            if (test != null) {
                attributeClauses.add(new AttributeClause(f.name(), test));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidFilterException(errors);
        }
        return new RecordFilter(keyClauses, attributeClauses);
    }

    private static Predicate<AttributeValue> keyCondition(
            String at, Scope.Condition c, String keyName, String keyType, List<FieldError> errors) {
        if (c.name() != null && !c.name().equals(keyName)) {
            errors.add(new FieldError(
                    at + "/name",
                    "'" + c.name() + "' is not the table's "
                            + (at.endsWith("partitionKey") ? "partition" : "sort") + " key (" + keyName
                            + "); filter it under "
                            + "attributeFilters, or name " + keyName));
            return null;
        }
        return condition(at, c.condition(), keyType, c.values(), true, errors);
    }

    private static Predicate<AttributeValue> condition(
            String at, String name, String type, List<String> rawValues, boolean key, List<FieldError> errors) {
        List<String> values = rawValues == null ? List.of() : rawValues;
        FieldError problem = shapeProblem(at, name, type, values.size(), key);
        if (problem != null) {
            errors.add(problem);
            return null;
        }
        List<Operand> operands = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            Operand o = Operand.parse(type, values.get(i));
            if (o == null) {
                errors.add(new FieldError(
                        at + "/values/" + i,
                        "'" + values.get(i) + "' is not a " + describe(type) + "; write " + example(type)));
                return null;
            }
            operands.add(o);
        }
        if (name.equals("Between") && operands.get(0).compareTo(operands.get(1)) > 0) {
            errors.add(new FieldError(
                    at + "/values",
                    "Between needs the lower bound first: " + values.get(0) + " is above " + values.get(1)));
            return null;
        }
        return build(name, operands);
    }

    /** What is wrong with a condition's name, type and number of values; null when nothing is. */
    private static FieldError shapeProblem(String at, String name, String type, int values, boolean key) {
        if (name == null || !CONDITIONS.contains(name)) {
            return new FieldError(
                    at + "/condition",
                    "'" + name + "' is not a condition; use one of " + String.join(", ", new TreeSet<>(CONDITIONS)));
        }
        if (type == null || !Set.of("S", "N", "B", "BOOL", "NULL").contains(type)) {
            return new FieldError(at + "/type", "'" + type + "' is not a filter type; use S, N, B, BOOL or NULL");
        }
        if (key && (name.equals("Exists") || name.equals("NotExists"))) {
            return new FieldError(at + "/condition", "a key attribute always exists; compare its value instead");
        }
        int needed = switch (name) {
            case "Exists", "NotExists" -> 0;
            case "Between" -> 2;
            default -> 1;
        };
        if (values != needed) {
            String takes = needed == 0 ? "no values" : needed == 1 ? "one value" : "two values, the lower bound first";
            return new FieldError(at + "/values", name + " takes " + takes + ", not " + values);
        }
        if (TEXTUAL.contains(name) && !type.equals("S") && !type.equals("B")) {
            return new FieldError(
                    at + "/condition",
                    name + " applies to strings and binary, not to " + type + "; use EqualTo or a range condition");
        }
        if (ORDERED.contains(name) && (type.equals("BOOL") || type.equals("NULL"))) {
            return new FieldError(
                    at + "/condition",
                    name + " needs ordered values; " + type
                            + " values can only be EqualTo, NotEqualTo, Exists or NotExists");
        }
        return null;
    }

    private static Predicate<AttributeValue> build(String name, List<Operand> o) {
        return switch (name) {
            case "Exists" -> v -> v != null;
            case "NotExists" -> v -> v == null;
            case "EqualTo" -> v -> o.get(0).equalsValue(v);
            case "NotEqualTo" -> v -> !o.get(0).equalsValue(v);
            case "LessThan" -> v -> is(o.get(0).order(v), c -> c < 0);
            case "LessThanOrEqualTo" -> v -> is(o.get(0).order(v), c -> c <= 0);
            case "GreaterThan" -> v -> is(o.get(0).order(v), c -> c > 0);
            case "GreaterThanOrEqualTo" -> v -> is(o.get(0).order(v), c -> c >= 0);
            case "Between" ->
                v -> is(o.get(0).order(v), c -> c >= 0) && is(o.get(1).order(v), c -> c <= 0);
            case "Contains" -> v -> o.get(0).containedIn(v);
            case "NotContains" -> v -> !o.get(0).containedIn(v);
            case "BeginsWith" -> v -> o.get(0).prefixOf(v);
            default -> throw new IllegalStateException(name);
        };
    }

    private static boolean is(Integer order, IntPredicate test) {
        return order != null && test.test(order);
    }

    private static String describe(String type) {
        return switch (type) {
            case "N" -> "decimal number";
            case "B" -> "base64 value";
            case "BOOL" -> "boolean";
            case "NULL" -> "NULL value";
            default -> "string";
        };
    }

    private static String example(String type) {
        return switch (type) {
            case "N" -> "a decimal such as 42, -1.5 or 1E+3";
            case "B" -> "the bytes in base64, such as AAEC";
            case "BOOL" -> "true or false";
            case "NULL" -> "true (an attribute of type NULL)";
            default -> "any text";
        };
    }

    /** A filter operand of one type, parsed once. */
    private record Operand(String type, String s, BigDecimal n, byte[] b, Boolean bool) {

        static Operand parse(String type, String text) {
            if (text == null) {
                return null;
            }
            try {
                return switch (type) {
                    case "S" -> new Operand(type, text, null, text.getBytes(StandardCharsets.UTF_8), null);
                    case "N" -> new Operand(type, null, new BigDecimal(text), null, null);
                    case "B" ->
                        new Operand(type, null, null, Base64.getDecoder().decode(text), null);
                    case "BOOL" ->
                        text.equals("true") || text.equals("false")
                                ? new Operand(type, null, null, null, Boolean.valueOf(text))
                                : null;
                    case "NULL" -> text.equals("true") ? new Operand(type, null, null, null, null) : null;
                    default -> null;
                };
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        int compareTo(Operand other) {
            return switch (type) {
                case "N" -> n.compareTo(other.n);
                case "S", "B" -> Arrays.compareUnsigned(b, other.b);
                default -> 0;
            };
        }

        /** The sign of (value - operand), or {@code null} when the value is absent or of another type. */
        Integer order(AttributeValue v) {
            if (v == null) {
                return null;
            }
            return switch (type) {
                case "S" ->
                    v.s() == null
                            ? null
                            : Integer.signum(Arrays.compareUnsigned(v.s().getBytes(StandardCharsets.UTF_8), b));
                case "N" -> v.n() == null ? null : Integer.signum(new BigDecimal(v.n()).compareTo(n));
                case "B" -> v.b() == null ? null : Integer.signum(Arrays.compareUnsigned(v.b().asByteArrayUnsafe(), b));
                default -> null;
            };
        }

        boolean equalsValue(AttributeValue v) {
            if (v == null) {
                return false;
            }
            return switch (type) {
                case "S" -> s.equals(v.s());
                case "N" -> v.n() != null && new BigDecimal(v.n()).compareTo(n) == 0;
                case "B" -> v.b() != null && Arrays.equals(v.b().asByteArrayUnsafe(), b);
                case "BOOL" -> bool.equals(v.bool());
                case "NULL" -> Boolean.TRUE.equals(v.nul());
                default -> false;
            };
        }

        boolean containedIn(AttributeValue v) {
            if (v == null) {
                return false;
            }
            if (type.equals("S")) {
                if (v.s() != null) {
                    return v.s().contains(s);
                }
                return v.hasSs() && v.ss().contains(s);
            }
            if (v.b() != null) {
                return indexOf(v.b().asByteArrayUnsafe(), b) >= 0;
            }
            return v.hasBs() && v.bs().contains(SdkBytes.fromByteArrayUnsafe(b));
        }

        boolean prefixOf(AttributeValue v) {
            if (v == null) {
                return false;
            }
            if (type.equals("S")) {
                return v.s() != null && v.s().startsWith(s);
            }
            byte[] value = v.b() == null ? null : v.b().asByteArrayUnsafe();
            return value != null && value.length >= b.length && Arrays.equals(value, 0, b.length, b, 0, b.length);
        }

        private static int indexOf(byte[] haystack, byte[] needle) {
            outer:
            for (int i = 0; i <= haystack.length - needle.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (haystack[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }
}
