package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.request.RestoreRequested;
import java.time.Instant;
import java.util.List;

/**
 * The planner checked the request against the vault and the destination and took it on. For a
 * point-in-time request, {@code pointInTime} is the second it resolved to (for {@code latest},
 * the latest restorable second when the request was accepted), fixed for the whole restore.
 */
public record RestoreAccepted(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                              RestoreRequested request, Instant pointInTime, List<String> warnings)
        implements RestoreEvent {

    public static RestoreAccepted of(RestoreRequested request) {
        return of(request, null, null);
    }

    /** @param warnings what the restore will change in a table that holds items (overwrites, deletes), and how to undo it */
    public static RestoreAccepted of(RestoreRequested request, Instant pointInTime, List<String> warnings) {
        return new RestoreAccepted(Envelope.newEventId(), request.restoreId(), SCHEMA_VERSION, Envelope.now(), request,
                pointInTime, warnings == null || warnings.isEmpty() ? null : List.copyOf(warnings));
    }
}
