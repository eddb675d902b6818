package io.dynarestore.contracts.request;

import java.util.ArrayList;
import java.util.List;

/**
 * A record restore's filters in words, for people reading a restore later ("partition key BeginsWith p12
 * and sort key EqualTo 3; status EqualTo open"). At most {@link #MAX_CHARS} characters, cut with an
 * ellipsis, so that what a view keeps of an ended restore stays small however many filters it had.
 */
public final class ScopeDescription {

    /** The longest description kept. */
    public static final int MAX_CHARS = 300;

    private ScopeDescription() {}

    /** The description of {@code scope}'s filters; null for a whole table (or no scope). */
    public static String of(Scope scope) {
        if (!(scope instanceof Scope.Records r)) {
            return null;
        }
        var parts = new ArrayList<String>();
        for (Scope.KeyFilter k : list(r.keyFilters())) {
            var both = new ArrayList<String>();
            if (k.partitionKey() != null) {
                both.add(condition("partition key", k.partitionKey()));
            }
            if (k.sortKey() != null) {
                both.add(condition("sort key", k.sortKey()));
            }
            parts.add(String.join(" and ", both));
        }
        for (Scope.AttributeFilter a : list(r.attributeFilters())) {
            parts.add(words(a.name(), a.condition(), a.values()));
        }
        String all = parts.isEmpty() ? "no filters" : String.join("; ", parts);
        return all.length() <= MAX_CHARS ? all : all.substring(0, MAX_CHARS - 1) + "…";
    }

    private static String condition(String key, Scope.Condition c) {
        return words(c.name() == null ? key : c.name(), c.condition(), c.values());
    }

    private static String words(String name, String condition, List<String> values) {
        return (name + " " + condition + " " + String.join(", ", list(values))).strip();
    }

    private static <T> List<T> list(List<T> maybe) {
        return maybe == null ? List.of() : maybe;
    }
}
