package io.dynarestore.contracts.request;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.Json;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import tools.jackson.databind.SerializationFeature;

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
        Boolean dryRun)
        implements Envelope {

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
     * A request with a {@code notify} keeps it empty, so that the notifier knows to look for its
     * targets. Redacting twice changes nothing.
     */
    public RestoreRequested redacted() {
        Destination d = destination;
        if (d instanceof Destination.File f && f.delivery() instanceof Destination.Delivery.Email e) {
            d = new Destination.File(f.format(), new Destination.Delivery.Email(null, null, e.linkId()));
        }
        return new RestoreRequested(
                restoreId,
                type,
                schemaVersion,
                eventId,
                occurredAt,
                requestedBy,
                source,
                scope,
                d,
                notification == null ? null : new Notify(null, null),
                dryRun);
    }

    /**
     * What readers keep of a restore that ended: the request {@link #redacted()}, and without its
     * filters and table options (only whether it was a record restore), so that a view of many
     * ended restores stays small. Whether another request is the same is then told by digest.
     */
    public RestoreRequested outline() {
        RestoreRequested r = redacted();
        Scope s = r.scope instanceof Scope.Records ? new Scope.Records(List.of(), null) : r.scope;
        Destination d = r.destination instanceof Destination.NewTable t
                ? new Destination.NewTable(t.account(), t.region(), t.tableName(), null)
                : r.destination;
        return new RestoreRequested(
                restoreId, type, schemaVersion, eventId, occurredAt, requestedBy, source, s, d, null, dryRun);
    }

    /**
     * What tells two requests for the same restore apart from two different ones, and outlives the
     * request's details: the SHA-256, in hex, of the {@link #redacted()} {@link #substance()}'s JSON
     * (map entries sorted, so that the order of tags does not count).
     */
    public String substanceDigest() {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(Json.mapper()
                                    .writer()
                                    .with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                                    .writeValueAsBytes(redacted().substance())));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The same request without the fields that differ between two publications of it: the
     * envelope, the requester it is on behalf of, and the link id restore-api gives an email delivery.
     */
    public RestoreRequested substance() {
        Destination d = destination;
        if (d instanceof Destination.File f && f.delivery() instanceof Destination.Delivery.Email e) {
            d = new Destination.File(f.format(), e.withLink(null));
        }
        return new RestoreRequested(
                restoreId,
                null,
                null,
                null,
                null,
                null,
                source,
                scope == null ? new Scope.Full() : scope,
                d,
                notification,
                dryRun);
    }
}
