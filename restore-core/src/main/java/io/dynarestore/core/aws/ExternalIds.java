package io.dynarestore.core.aws;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The ExternalId this installation presents when it assumes a role in an account: derived from
 * the installation's secret and the account id (HMAC-SHA256), so every service computes the same
 * value without sharing state, each account gets its own, and nobody can guess another
 * installation's. An operator copies it into the role's trust policy
 * ({@code "Condition": {"StringEquals": {"sts:ExternalId": "..."}}}); {@code GET /accounts} lists it.
 */
public final class ExternalIds {

    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private ExternalIds() {}

    /** {@code dynarestore-} and 32 base32 characters (160 bits). */
    public static String of(String secret, String accountId) {
        if (secret == null || secret.length() < 16) {
            throw new IllegalStateException("aws.external-id-secret must be set (at least 16 characters) to assume "
                    + "the role of account " + accountId + "; or set that account's external-id explicitly");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] digest =
                    mac.doFinal(("dynarestore external id for account " + accountId).getBytes(StandardCharsets.UTF_8));
            var out = new StringBuilder("dynarestore-");
            int buffer = 0;
            int bits = 0;
            for (int i = 0; i < 20; i++) {
                buffer = buffer << 8 | digest[i] & 0xff;
                bits += 8;
                while (bits >= 5) {
                    out.append(ALPHABET[buffer >>> bits - 5 & 31]);
                    bits -= 5;
                }
            }
            return out.toString();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** The ExternalId of {@code account}: its configured one, else the derived one; {@code null} without a role. */
    public static String forAccount(AwsSettings settings, AwsSettings.Account account) {
        if (account.roleArn() == null) {
            return null;
        }
        return account.externalId() != null ? account.externalId() : of(settings.externalIdSecret(), account.id());
    }
}
