package io.dynarestore.contracts.work;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/** A work item on {@code restore.exports}, keyed by {@code restoreId/part} ({@code restoreId/0} for a whole export). */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ExportDispatched.class, name = "ExportDispatched"),
    @JsonSubTypes.Type(value = ExportMergeDispatched.class, name = "ExportMergeDispatched")
})
public sealed interface ExportWork extends Envelope permits ExportDispatched, ExportMergeDispatched {

    int SCHEMA_VERSION = 1;

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
