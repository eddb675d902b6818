package io.dynarestore.contracts.notifications;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** The notification reached {@code target} (SMTP accepted the mail, or the webhook answered 2xx). */
public record NotificationDelivered(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String deliveryId,
        Channel channel,
        String target,
        int attempts)
        implements NotificationEvent {

    public static NotificationDelivered of(
            String restoreId, String deliveryId, Channel channel, String target, int attempts) {
        return new NotificationDelivered(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                deliveryId,
                channel,
                target,
                attempts);
    }
}
