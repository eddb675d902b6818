package io.dynarestore.contracts;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * The fields every message carries: an id of its own, the restore it belongs to, its type, the
 * version of its schema and when it happened.
 */
public interface Envelope {

    String eventId();

    String restoreId();

    String type();

    Integer schemaVersion();

    Instant occurredAt();

    /** What the message is about, for the {@code ce_subject} header: its restore, unless it says otherwise. */
    @JsonIgnore
    default String subject() {
        return restoreId();
    }

    static String newEventId() {
        return UUID.randomUUID().toString();
    }

    /** Now, to the millisecond: what every event's {@code occurredAt} is set from. */
    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
