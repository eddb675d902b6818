package io.dynarestore.contracts.links;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/** The passcode of try {@code tryId} was right, and the file was handed out. */
public record PasscodeAccepted(
        String eventId, String restoreId, Integer schemaVersion, Instant occurredAt, String linkId, String tryId)
        implements LinkEvent {

    public static PasscodeAccepted of(String restoreId, String linkId, String tryId) {
        return new PasscodeAccepted(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), linkId, tryId);
    }
}
