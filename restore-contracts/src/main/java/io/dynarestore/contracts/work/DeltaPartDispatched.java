package io.dynarestore.contracts.work;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.Topic;
import java.time.Instant;

/**
 * Build part {@code part} of {@code parts} of a point-in-time restore's delta: the last write up to
 * the restored second of every changed key whose hash falls in the part's slice of the key-hash
 * space. What to read is staged in the vault by the planner that owns the restore, under the
 * restore's staging folder and {@code attempt} (one planning of the restore); the part is written
 * beside it, and the owner merges the parts once each is there.
 */
public record DeltaPartDispatched(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String attempt,
        int part,
        int parts)
        implements PlanningWork {

    public static DeltaPartDispatched of(String restoreId, String attempt, int part, int parts) {
        return new DeltaPartDispatched(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), attempt, part, parts);
    }

    /** The part's key on {@code restore.planning}. */
    @Override
    @JsonIgnore
    public String subject() {
        return Topic.workKey(restoreId, part);
    }
}
