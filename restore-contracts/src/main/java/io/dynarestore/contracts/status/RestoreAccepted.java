package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.request.RestoreRequested;
import java.time.Instant;

/** The planner checked the request against the vault and the destination and took it on. */
public record RestoreAccepted(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                              RestoreRequested request) implements RestoreEvent {

    public static RestoreAccepted of(RestoreRequested request) {
        return new RestoreAccepted(Envelope.newEventId(), request.restoreId(), SCHEMA_VERSION, Envelope.now(), request);
    }
}
