package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.List;

/**
 * The request cannot be carried out, and nothing was changed. {@code reason} says what is wrong
 * and how to fix it; {@code errors} lists each problem with the field it concerns.
 */
public record RestoreRejected(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        RejectionCode code,
        String reason,
        List<FieldError> errors)
        implements RestoreEvent {

    public static RestoreRejected of(String restoreId, RejectionCode code, String reason, List<FieldError> errors) {
        return new RestoreRejected(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                code,
                reason,
                errors == null || errors.isEmpty() ? null : List.copyOf(errors));
    }

    /** One problem of a request: a JSON pointer to the field (or {@code ""}) and a message. */
    public record FieldError(String field, String message) {}
}
