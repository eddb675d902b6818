package io.dynarestore.contracts.work;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/** A work item on {@code restore.segments}, keyed by {@code restoreId/segment}. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({@JsonSubTypes.Type(value = SegmentDispatched.class, name = "SegmentDispatched")})
public sealed interface SegmentWork extends Envelope permits SegmentDispatched {

    int SCHEMA_VERSION = 1;

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
