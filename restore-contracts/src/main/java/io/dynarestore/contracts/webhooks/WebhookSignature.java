package io.dynarestore.contracts.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How the notifier signs webhooks, after the Standard Webhooks scheme: headers {@code webhook-id}
 * (the status event's id, the same on every retry), {@code webhook-timestamp} (epoch seconds of
 * the attempt) and {@code webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">}.
 * A receiver recomputes the signature with the shared secret, compares in constant time, refuses
 * timestamps more than a few minutes off (replays) and drops ids it has seen (retries).
 *
 * <p>The secret is {@code whsec_} followed by base64 key bytes, or any other string, whose UTF-8
 * bytes are the key.
 */
public final class WebhookSignature {

    public static final String ID = "webhook-id";
    public static final String TIMESTAMP = "webhook-timestamp";
    public static final String SIGNATURE = "webhook-signature";

    private WebhookSignature() {}

    /** The {@code webhook-signature} header value for this message. */
    public static String sign(String secret, String id, long timestampSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(secret), "HmacSHA256"));
            mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }

    /**
     * Whether {@code signatureHeader} (one or more space-separated {@code v1,...} values) holds the
     * signature of this message, and {@code timestampSeconds} is within {@code toleranceSeconds} of
     * {@code nowSeconds}.
     */
    public static boolean verify(
            String secret,
            String id,
            long timestampSeconds,
            byte[] body,
            String signatureHeader,
            long nowSeconds,
            long toleranceSeconds) {
        if (signatureHeader == null || Math.abs(nowSeconds - timestampSeconds) > toleranceSeconds) {
            return false;
        }
        byte[] expected = sign(secret, id, timestampSeconds, body).getBytes(StandardCharsets.UTF_8);
        boolean any = false;
        for (String candidate : signatureHeader.trim().split(" +")) {
            any |= MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.UTF_8));
        }
        return any;
    }

    private static byte[] key(String secret) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("a webhook signing secret is needed");
        }
        return secret.startsWith("whsec_")
                ? Base64.getDecoder().decode(secret.substring(6))
                : secret.getBytes(StandardCharsets.UTF_8);
    }
}
