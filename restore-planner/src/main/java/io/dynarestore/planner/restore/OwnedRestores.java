package io.dynarestore.planner.restore;

import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The restores of the status partitions this planner owns, by partition. Only the loop thread
 * touches it. Rule: bounded; a restore that ended more than {@code retainEnded} ago is forgotten
 * once nothing is left to do for it, and its id, used again, starts a new restore
 * ({@link RestoreView#endedBefore}, the rule restore-api's views follow too).
 */
final class OwnedRestores {

    private final Map<Integer, Map<String, TrackedRestore>> byPartition = new HashMap<>();
    private final Duration retainEnded;

    OwnedRestores(Duration retainEnded) {
        this.retainEnded = retainEnded;
    }

    boolean owns(int partition) {
        return byPartition.containsKey(partition);
    }

    void own(int partition) {
        byPartition.putIfAbsent(partition, new HashMap<>());
    }

    void release(int partition) {
        byPartition.remove(partition);
    }

    TrackedRestore get(int partition, String restoreId) {
        Map<String, TrackedRestore> restores = byPartition.get(partition);
        return restores == null ? null : restores.get(restoreId);
    }

    TrackedRestore getOrCreate(int partition, String restoreId) {
        return byPartition
                .computeIfAbsent(partition, p -> new HashMap<>())
                .computeIfAbsent(restoreId, TrackedRestore::new);
    }

    Collection<TrackedRestore> in(int partition) {
        Map<String, TrackedRestore> restores = byPartition.get(partition);
        return restores == null ? List.of() : restores.values();
    }

    /** Every restore of every owned partition. */
    List<TrackedRestore> all() {
        var all = new ArrayList<TrackedRestore>();
        byPartition.values().forEach(m -> all.addAll(m.values()));
        return all;
    }

    /**
     * Drops the restores that ended more than the retention before {@code now} and have no step,
     * capacity put-back or rollback left; returns how many.
     */
    int forgetEnded(Instant now) {
        Instant cutoff = now.minus(retainEnded);
        int n = 0;
        for (Map<String, TrackedRestore> restores : byPartition.values()) {
            var it = restores.values().iterator();
            while (it.hasNext()) {
                TrackedRestore r = it.next();
                if (!r.stepInFlight
                        && r.view.endedBefore(cutoff)
                        && !r.view.capacityToPutBack()
                        && !r.view.rollingBack()) {
                    it.remove();
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * The restore that {@code event} belongs to: a RestoreAccepted for an id whose restore ended
     * more than the retention before it starts a new one (the id was used again after the old one
     * aged out), also while a partition is replayed.
     */
    TrackedRestore forEvent(int partition, RestoreEvent event) {
        TrackedRestore r = get(partition, event.restoreId());
        Instant at = event.occurredAt() == null ? Instant.now() : event.occurredAt();
        if (r != null && event instanceof RestoreAccepted && r.view.endedBefore(at.minus(retainEnded))) {
            byPartition.get(partition).remove(event.restoreId());
        }
        return getOrCreate(partition, event.restoreId());
    }

    /** The restore of {@code restoreId}, unless it ended more than the retention before {@code now} (then forgotten). */
    TrackedRestore current(int partition, String restoreId, Instant now) {
        TrackedRestore r = get(partition, restoreId);
        if (r != null && !r.stepInFlight && r.view.endedBefore(now.minus(retainEnded))) {
            byPartition.get(partition).remove(restoreId);
            return null;
        }
        return r;
    }

    int size() {
        return byPartition.values().stream().mapToInt(Map::size).sum();
    }
}
