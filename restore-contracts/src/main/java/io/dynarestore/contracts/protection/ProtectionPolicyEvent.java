package io.dynarestore.contracts.protection;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/**
 * A record of the compacted {@code restore.protection} topic, keyed by {@code account/region/table}:
 * the latest one of a table is its policy; a tombstone (null value) ends its protection.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({@JsonSubTypes.Type(value = ProtectionSet.class, name = "ProtectionSet")})
public sealed interface ProtectionPolicyEvent extends Envelope permits ProtectionSet {

    int SCHEMA_VERSION = 1;

    @Override
    @JsonIgnore
    default String restoreId() {
        return null;
    }

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
