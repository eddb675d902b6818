package io.dynarestore.notifier.deliveries;

import io.dynarestore.contracts.notifications.NotificationEvent.Channel;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One notification to send: to {@code target} over {@code channel}, for restore
 * {@code restoreId}. {@code id} names it across redeliveries; {@code messageId} is what the
 * receiver may use to drop duplicates (the status event's id). {@code secret} marks a body that
 * must not leave the notifier but to its target (a link mail: it holds the link's token).
 *
 * <p>Rule: neither the id nor {@link #shown()} holds the target itself, since both are logged;
 * the target (an address, a webhook URL that may carry a token) appears only on
 * {@code restore.notifications}, which only the notifier reads.
 */
public record Delivery(
        String id,
        String restoreId,
        Channel channel,
        String target,
        String messageId,
        String subject,
        byte[] body,
        boolean secret) {

    public Delivery(
            String id,
            String restoreId,
            Channel channel,
            String target,
            String messageId,
            String subject,
            byte[] body) {
        this(id, restoreId, channel, target, messageId, subject, body, false);
    }

    /** The delivery's id: the restore, what is sent, and a digest of the target. */
    public static String idOf(String restoreId, String kind, String target) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(target.getBytes(StandardCharsets.UTF_8));
            return restoreId + "/" + kind + "/" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The target as logs may show it: a webhook's scheme and host, an address's domain. */
    public String shown() {
        if (channel == Channel.WEBHOOK) {
            try {
                var uri = new URI(target);
                return uri.getScheme() + "://" + uri.getHost() + "/...";
            } catch (URISyntaxException | RuntimeException e) {
                return "a malformed URL";
            }
        }
        int at = target.lastIndexOf('@');
        return at < 0 ? "an address" : "…" + target.substring(at);
    }
}
