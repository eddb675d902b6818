package io.dynarestore.contracts.request;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * A request to restore a table: the JSON that {@code POST /restores} takes and that an upstream
 * system publishes to {@code restore.requests}, keyed by {@code restoreId}.
 *
 * <p>Only {@code source} and {@code destination} are required. A missing {@code restoreId} is
 * chosen by the system; a client that sets it makes the request idempotent (the same id twice
 * starts one restore). A missing {@code scope} is {@code FULL}.
 */
public record RestoreRequested(
        String restoreId,
        String type,
        Integer schemaVersion,
        String eventId,
        Instant occurredAt,
        String requestedBy,
        Source source,
        Scope scope,
        Destination destination,
        @JsonProperty("notify") Notify notification,
        Boolean dryRun) implements io.dynarestore.contracts.Envelope {

    public static final String TYPE = "RestoreRequested";
    public static final int SCHEMA_VERSION = 1;

    /** Whether this request only asks what the restore would change (existing table or in place). */
    public boolean dry() {
        return Boolean.TRUE.equals(dryRun);
    }

    /** This request with the system's defaults filled in. */
    public RestoreRequested normalized(String assignedRestoreId, String assignedEventId, Instant now) {
        return new RestoreRequested(
                restoreId == null || restoreId.isBlank() ? assignedRestoreId : restoreId,
                TYPE,
                schemaVersion == null ? SCHEMA_VERSION : schemaVersion,
                eventId == null || eventId.isBlank() ? assignedEventId : eventId,
                occurredAt == null ? now : occurredAt,
                requestedBy,
                source,
                scope == null ? new Scope.Full() : scope,
                destination,
                notification,
                dryRun);
    }

    /**
     * This request without what only the notifier may read: the notification targets (addresses
     * and webhook URLs, which can hold tokens), and an email delivery's recipients and message.
     * This is the copy {@code RestoreAccepted} carries on {@code restore.status}, which dashboards read.
     */
    public RestoreRequested redacted() {
        Destination d = destination;
        if (d instanceof Destination.File f && f.delivery() instanceof Destination.Delivery.Email e) {
            d = new Destination.File(f.format(), new Destination.Delivery.Email(null, null, e.linkId()));
        }
        return new RestoreRequested(restoreId, type, schemaVersion, eventId, occurredAt, requestedBy, source, scope, d,
                null, dryRun);
    }

    /**
     * Whether {@code other} asks for the same restore: the same substance once both are
     * {@link #redacted()}, as every reader of {@code restore.status} can compare them.
     */
    public boolean sameRestoreAs(RestoreRequested other) {
        return other != null && redacted().substance().equals(other.redacted().substance());
    }

    /** The same request without the fields that differ between two publications of it. */
    public RestoreRequested substance() {
        return new RestoreRequested(restoreId, null, null, null, null, requestedBy,
                source, scope == null ? new Scope.Full() : scope, destination, notification, dryRun);
    }
}
