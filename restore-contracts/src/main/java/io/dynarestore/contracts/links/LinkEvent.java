package io.dynarestore.contracts.links;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/**
 * An event on {@code restore.links}, keyed by link id, on one partition: the log of every
 * passcode-protected link. Its order decides which passcode tries count (see ADR 0013).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = LinkIssued.class, name = "LinkIssued"),
    @JsonSubTypes.Type(value = PasscodeTried.class, name = "PasscodeTried"),
    @JsonSubTypes.Type(value = PasscodeAccepted.class, name = "PasscodeAccepted")
})
public sealed interface LinkEvent extends Envelope permits LinkIssued, PasscodeTried, PasscodeAccepted {

    int SCHEMA_VERSION = 1;

    String linkId();

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
