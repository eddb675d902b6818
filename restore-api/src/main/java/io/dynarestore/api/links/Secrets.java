package io.dynarestore.api.links;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The secrets of a link. A passcode is 10 characters of Crockford's base32 (50 bits), shown as
 * {@code XXXXX-XXXXX}: no I, L, O or U, so that it survives being read out or typed from paper.
 * A token is 256 bits, base64url. Both come from {@link SecureRandom}.
 */
final class Secrets {

    static final String ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    static final int PASSCODE_LENGTH = 10;

    private final SecureRandom random;

    Secrets(SecureRandom random) {
        this.random = random;
    }

    Secrets() {
        this(new SecureRandom());
    }

    String passcode() {
        var code = new StringBuilder(PASSCODE_LENGTH + 1);
        for (int i = 0; i < PASSCODE_LENGTH; i++) {
            if (i == PASSCODE_LENGTH / 2) {
                code.append('-');
            }
            code.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return code.toString();
    }

    String token() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * The passcode as it is hashed: upper case, without spaces and dashes, with the letters that
     * Crockford's alphabet reads as digits (O as 0, I and L as 1) mapped to them.
     */
    static String normalize(String entered) {
        if (entered == null) {
            return "";
        }
        var out = new StringBuilder(entered.length());
        for (char c : entered.toUpperCase(Locale.ROOT).toCharArray()) {
            switch (c) {
                case ' ', '-', '\t' -> {}
                case 'O' -> out.append('0');
                case 'I', 'L' -> out.append('1');
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** What the links log and the fold keep of a token: its SHA-256 in hex. */
    static String sha256(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
