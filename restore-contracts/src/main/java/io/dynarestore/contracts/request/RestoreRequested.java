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

    /** The same request without the fields that differ between two publications of it. */
    public RestoreRequested substance() {
        return new RestoreRequested(restoreId, null, null, null, null, requestedBy,
                source, scope == null ? new Scope.Full() : scope, destination, notification, dryRun);
    }
}
