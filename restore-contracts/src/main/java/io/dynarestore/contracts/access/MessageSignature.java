package io.dynarestore.contracts.access;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Proof that a message on {@code restore.requests} or {@code restore.commands} comes from the
 * principal its {@value Access#PRINCIPAL_HEADER} header names: an HMAC-SHA256, with a key only
 * that principal and the planner hold, over the topic, the principal, the caller it acts for and
 * the SHA-256 of the record's value. Any change to one of them, or a copy of the header onto
 * another message, breaks it.
 *
 * <p>The signed text, for clients in other languages, is these lines joined by {@code \n}:
 * {@code dynarestore-signature-v1}, the topic, the principal, the caller (empty when none) and the
 * lower-case hex SHA-256 of the value bytes. The header's value is {@code v1=} and the
 * base64url (unpadded) HMAC of that text with the key's UTF-8 bytes.
 */
public final class MessageSignature {

    /** The header that carries the signature. */
    public static final String HEADER = "dynarestore-signature";
    /**
     * The header in which restore-api names the authenticated caller it publishes for; signed with
     * the rest, and believed only from a principal the planner trusts to vouch for its callers.
     */
    public static final String CALLER_HEADER = "dynarestore-caller";
    /** Keys shorter than this many characters are refused: they would be guessable. */
    public static final int MIN_KEY_LENGTH = 32;

    private static final String VERSION = "v1=";

    private MessageSignature() {}

    /** The header value that proves {@code principal} published {@code value} on {@code topic}. */
    public static String sign(String key, String topic, String principal, String caller, byte[] value) {
        return VERSION
                + Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(mac(key, text(topic, principal, caller, value)));
    }

    /**
     * Whether {@code signature} was made with one of {@code keys} over exactly these fields; each
     * key is compared in constant time, with no early exit.
     */
    public static boolean verify(
            Collection<String> keys, String topic, String principal, String caller, byte[] value, String signature) {
        if (signature == null || !signature.startsWith(VERSION) || keys.isEmpty()) {
            return false;
        }
        byte[] presented;
        try {
            presented = Base64.getUrlDecoder().decode(signature.substring(VERSION.length()));
        } catch (IllegalArgumentException e) {
            return false;
        }
        byte[] text = text(topic, principal, caller, value);
        boolean valid = false;
        for (String key : keys) {
            valid |= MessageDigest.isEqual(mac(key, text), presented);
        }
        return valid;
    }

    /** Why {@code key} cannot sign messages, or {@code null}. */
    public static String weakness(String key) {
        if (key == null || key.isBlank()) {
            return "is empty";
        }
        return key.length() < MIN_KEY_LENGTH ? "is shorter than " + MIN_KEY_LENGTH + " characters" : null;
    }

    private static byte[] text(String topic, String principal, String caller, byte[] value) {
        try {
            String digest = HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(value == null ? new byte[0] : value));
            return String.join("\n", "dynarestore-signature-v1", topic, principal, caller == null ? "" : caller, digest)
                    .getBytes(StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] mac(String key, byte[] text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(text);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
