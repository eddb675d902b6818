package io.dynarestore.contracts.links;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * Someone entered a passcode for the link; written before the passcode is checked. A try that no
 * {@link PasscodeAccepted} follows counts as wrong, so a replica that dies while checking cannot
 * give a guesser a free try.
 */
public record PasscodeTried(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, String linkId, String tryId)
        implements LinkEvent {

    public static PasscodeTried of(String restoreId, String linkId, String tryId) {
        return new PasscodeTried(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), linkId, tryId);
    }
}
