package io.dynarestore.writer.segments;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The condition of a strict undo's write: the item still holds the image the change log last saw
 * ({@code attribute_not_exists} of the partition key when that image is absent, else every one of
 * its attributes equal). The writer compares whole items before writing; the condition guards the
 * moment between that read and the write. A write in that moment that only adds attributes and
 * leaves every old one equal is the case it cannot see (ADR 0032). Attributes beyond
 * {@link #MAX_ATTRIBUTES} (in name order) are left out, to stay within DynamoDB's 4 KB expressions.
 */
record RevertCondition(String expression, Map<String, String> names, Map<String, AttributeValue> values) {

    static final int MAX_ATTRIBUTES = 200;

    static RevertCondition of(Map<String, AttributeValue> expected, String partitionKey) {
        if (expected == null) {
            return new RevertCondition("attribute_not_exists(#k)", Map.of("#k", partitionKey), null);
        }
        var names = new HashMap<String, String>();
        var values = new HashMap<String, AttributeValue>();
        List<String> clauses = new ArrayList<>();
        int i = 0;
        for (var e : new TreeMap<>(expected).entrySet()) {
            if (i == MAX_ATTRIBUTES) {
                break;
            }
            names.put("#a" + i, e.getKey());
            values.put(":v" + i, e.getValue());
            clauses.add("#a" + i + " = :v" + i);
            i++;
        }
        return new RevertCondition(String.join(" AND ", clauses), Map.copyOf(names), Map.copyOf(values));
    }
}
