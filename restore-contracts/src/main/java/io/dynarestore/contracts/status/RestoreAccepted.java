package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.request.RestoreRequested;
import java.time.Instant;
import java.util.List;

/**
 * The planner checked the request and took it on. For a point-in-time request,
 * {@code pointInTime} is the second it resolved to (for {@code latest}, the latest restorable
 * second when the request was accepted), fixed for the whole restore.
 *
 * <p>Rules: {@code request} is {@link RestoreRequested#redacted() redacted} (no notification
 * targets, no email recipients), since dashboards read this topic; {@code principal} is who the
 * planner authenticated, the caller restore-api vouched for or the Kafka principal whose
 * signature it verified ({@code unidentified} without one), while {@code request.requestedBy} is
 * only what the submitter said.
 */
public record RestoreAccepted(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        RestoreRequested request,
        String principal,
        Instant pointInTime,
        List<String> warnings)
        implements RestoreEvent {

    /** The principal of a request nobody proved. */
    public static final String UNIDENTIFIED = "unidentified";

    public static RestoreAccepted of(RestoreRequested request) {
        return of(request, null, null, null);
    }

    /**
     * @param warnings  what the restore will change in a table that holds items (overwrites, deletes), and how to undo it
     * @param principal who submitted it, authenticated
     */
    public static RestoreAccepted of(
            RestoreRequested request, Instant pointInTime, List<String> warnings, String principal) {
        return new RestoreAccepted(
                Envelope.newEventId(),
                request.restoreId(),
                SCHEMA_VERSION,
                Envelope.now(),
                request.redacted(),
                principal,
                pointInTime,
                warnings == null || warnings.isEmpty() ? null : List.copyOf(warnings));
    }
}
