package io.dynarestore.contracts.request;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/** Which items to restore: all of them, or the records that match filters. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Scope.Full.class, name = "FULL"),
    @JsonSubTypes.Type(value = Scope.Records.class, name = "RECORDS")
})
public sealed interface Scope {

    /** Every item of the source. */
    record Full() implements Scope {}

    /**
     * Items whose key matches any of {@code keyFilters} (each a partition-key condition and an
     * optional sort-key condition) and all of {@code attributeFilters}.
     */
    record Records(List<KeyFilter> keyFilters, List<AttributeFilter> attributeFilters) implements Scope {}

    /** A partition-key condition and an optional sort-key condition, both of which must hold. */
    record KeyFilter(Condition partitionKey, Condition sortKey) {}

    /** A condition on one attribute of a given DynamoDB type. */
    record AttributeFilter(String name, String type, String condition, List<String> values) {}

    /**
     * A condition such as {@code EqualTo} or {@code BeginsWith} with its operands, as strings
     * (numbers as decimals, binary as base64). In a key filter, {@code name} may repeat the key
     * attribute's name; it must then be that name.
     */
    record Condition(String name, String condition, List<String> values) {
        public Condition(String condition, List<String> values) {
            this(null, condition, values);
        }
    }
}
