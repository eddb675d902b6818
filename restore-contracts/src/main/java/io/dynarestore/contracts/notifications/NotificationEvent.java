package io.dynarestore.contracts.notifications;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/**
 * An event on {@code restore.notifications}, keyed by restore id: the notifier's record of each
 * delivery it finished, so that no delivery is made twice when status events are read again.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = NotificationDelivered.class, name = "NotificationDelivered"),
        @JsonSubTypes.Type(value = NotificationAbandoned.class, name = "NotificationAbandoned")
})
public sealed interface NotificationEvent extends Envelope permits NotificationDelivered, NotificationAbandoned {

    int SCHEMA_VERSION = 1;

    /** Names the delivery: restore, what is sent and to whom; the same for every redelivery. */
    String deliveryId();

    /** How a notification travels. */
    enum Channel { EMAIL, WEBHOOK }

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
