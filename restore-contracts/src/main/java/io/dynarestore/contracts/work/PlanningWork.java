package io.dynarestore.contracts.work;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/**
 * Planning work on {@code restore.planning}, keyed by {@code restoreId/part}: a part of a restore's
 * plan for whichever restore-planner replica is assigned it. Kafka carries the descriptor; what the
 * part reads and writes stays in the vault.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({@JsonSubTypes.Type(value = DeltaPartDispatched.class, name = "DeltaPartDispatched")})
public sealed interface PlanningWork extends Envelope permits DeltaPartDispatched {

    int SCHEMA_VERSION = 1;

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
