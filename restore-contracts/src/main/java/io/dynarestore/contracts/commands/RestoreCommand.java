package io.dynarestore.contracts.commands;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/**
 * A command on a running restore, on {@code restore.commands}, keyed by restore id (the same
 * partition number as the restore's requests and status events).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = CancelRequested.class, name = "CancelRequested"),
    @JsonSubTypes.Type(value = RollbackRequested.class, name = "RollbackRequested")
})
public sealed interface RestoreCommand extends Envelope permits CancelRequested, RollbackRequested {

    int SCHEMA_VERSION = 1;

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
