package io.dynarestore.notifier.deliveries;

import io.dynarestore.contracts.notifications.NotificationEvent.Channel;

/**
 * One notification to send: to {@code target} over {@code channel}, for restore
 * {@code restoreId}. {@code id} names it across redeliveries; {@code messageId} is what the
 * receiver may use to drop duplicates (the status event's id).
 */
public record Delivery(String id, String restoreId, Channel channel, String target, String messageId, String subject,
                       byte[] body) {

    public static String idOf(String restoreId, String kind, String target) {
        return restoreId + "/" + kind + "/" + target;
    }
}
