package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The restore stopped before it was complete. {@code reason} says what went wrong and what to
 * do; {@code itemsWritten} were written and stay in the destination.
 */
public record RestoreFailed(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String reason,
        long itemsWritten,
        Verification verification)
        implements RestoreEvent {

    public static RestoreFailed of(String restoreId, String reason, long itemsWritten) {
        return new RestoreFailed(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), reason, itemsWritten, null);
    }

    /** A restore whose items were all written but whose verification found mismatches. */
    public static RestoreFailed unverified(
            String restoreId, String reason, long itemsWritten, Verification verification) {
        return new RestoreFailed(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), reason, itemsWritten, verification);
    }
}
