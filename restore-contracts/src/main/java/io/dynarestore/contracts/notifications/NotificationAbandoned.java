package io.dynarestore.contracts.notifications;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The notifier gave up on the notification after {@code attempts} tries; it is also on
 * {@code restore.notifications.DLT} with the body it would have sent, for an operator to replay.
 */
public record NotificationAbandoned(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String deliveryId,
        Channel channel,
        String target,
        int attempts,
        String error)
        implements NotificationEvent {

    public static NotificationAbandoned of(
            String restoreId, String deliveryId, Channel channel, String target, int attempts, String error) {
        return new NotificationAbandoned(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                deliveryId,
                channel,
                target,
                attempts,
                error);
    }
}
