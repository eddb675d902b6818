package io.dynarestore.contracts.work;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.Topic;
import java.time.Instant;

/**
 * Build part {@code part} of {@code parts} of a full in-place restore's sweep: the keys the
 * destination table holds in parallel Scan segment {@code part} of {@code parts} that the restored
 * image lacks. What to compare is staged in the vault by the planner that owns the restore, under
 * the restore's staging folder and {@code attempt}; the part is written beside it, and the owner
 * merges the parts once each is there.
 */
public record SweepPartDispatched(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String attempt,
        int part,
        int parts)
        implements PlanningWork {

    public static SweepPartDispatched of(String restoreId, String attempt, int part, int parts) {
        return new SweepPartDispatched(
                Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), attempt, part, parts);
    }

    /** The part's key on {@code restore.planning}. */
    @Override
    @JsonIgnore
    public String subject() {
        return Topic.workKey(restoreId, part);
    }
}
