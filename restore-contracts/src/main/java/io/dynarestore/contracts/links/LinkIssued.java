package io.dynarestore.contracts.links;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.List;

/**
 * restore-api issued a link to the file of restore {@code restoreId}: the notifier mails
 * {@code token} (the secret part of the link) to {@code recipients} once the file exists. The
 * passcode is only here as an Argon2 hash; it was shown once, to the submitter. The link opens
 * nothing after {@code expiresAt}.
 */
public record LinkIssued(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String linkId,
        String token,
        String passcodeHash,
        List<String> recipients,
        String message,
        Instant expiresAt)
        implements LinkEvent {

    public static LinkIssued of(
            String restoreId,
            String linkId,
            String token,
            String passcodeHash,
            List<String> recipients,
            String message,
            Instant expiresAt) {
        return new LinkIssued(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                linkId,
                token,
                passcodeHash,
                List.copyOf(recipients),
                message,
                expiresAt);
    }
}
