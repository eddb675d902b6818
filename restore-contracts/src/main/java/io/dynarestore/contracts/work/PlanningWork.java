package io.dynarestore.contracts.work;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;
import java.util.regex.Pattern;

/**
 * Planning work on {@code restore.planning}, keyed by {@code restoreId/part}: a part of a restore's
 * plan (a slice of a point-in-time delta, a segment of an in-place sweep) for whichever restore-planner replica is assigned it. Kafka carries the descriptor; what the
 * part reads and writes stays in the vault.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = DeltaPartDispatched.class, name = "DeltaPartDispatched"),
    @JsonSubTypes.Type(value = SweepPartDispatched.class, name = "SweepPartDispatched")
})
public sealed interface PlanningWork extends Envelope permits DeltaPartDispatched, SweepPartDispatched {

    int SCHEMA_VERSION = 1;

    /** The most parts a piece of planning is split into. */
    int MAX_PARTS = 64;

    /** An attempt becomes a folder name in the vault: lower-case letters and digits only. */
    Pattern ATTEMPT = Pattern.compile("[a-z0-9]{1,64}");

    /** One planning of the restore: a planner that plans the restore again uses a new attempt. */
    String attempt();

    /** The part, from 0. */
    int part();

    /** How many parts the work is split into. */
    int parts();

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
