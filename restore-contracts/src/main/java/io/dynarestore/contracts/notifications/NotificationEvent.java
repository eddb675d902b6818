package io.dynarestore.contracts.notifications;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/**
 * An event on {@code restore.notifications}, keyed by restore id: whom a restore's end is to be
 * told ({@link NotificationsRequested}, from the planner), and the notifier's record of each
 * delivery it finished ({@link NotificationDelivered}, {@link NotificationAbandoned}), so that no
 * delivery is made twice when status events are read again. Only the planner and the notifier may write it; only the notifier may read it
 * (it holds addresses and webhook URLs).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = NotificationDelivered.class, name = "NotificationDelivered"),
    @JsonSubTypes.Type(value = NotificationAbandoned.class, name = "NotificationAbandoned"),
    @JsonSubTypes.Type(value = NotificationsRequested.class, name = "NotificationsRequested")
})
public sealed interface NotificationEvent extends Envelope
        permits NotificationDelivered, NotificationAbandoned, NotificationsRequested {

    int SCHEMA_VERSION = 1;

    /**
     * The delivery an event finished (delivered or abandoned), or {@code null} for one that
     * finishes none. A delivery id names the restore, what is sent and a digest of to whom; it is
     * the same for every redelivery.
     */
    static String finishedDelivery(NotificationEvent event) {
        if (event instanceof NotificationDelivered d) {
            return d.deliveryId();
        }
        return event instanceof NotificationAbandoned a ? a.deliveryId() : null;
    }

    /** How a notification travels. */
    enum Channel {
        EMAIL,
        WEBHOOK
    }

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
