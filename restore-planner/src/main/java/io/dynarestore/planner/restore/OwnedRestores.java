package io.dynarestore.planner.restore;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The restores of the status partitions this planner owns, by partition. Only the loop thread
 * touches it.
 */
final class OwnedRestores {

    private final Map<Integer, Map<String, TrackedRestore>> byPartition = new HashMap<>();

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
        return byPartition.computeIfAbsent(partition, p -> new HashMap<>())
                .computeIfAbsent(restoreId, TrackedRestore::new);
    }

    Collection<TrackedRestore> in(int partition) {
        Map<String, TrackedRestore> restores = byPartition.get(partition);
        return restores == null ? List.of() : restores.values();
    }

    /** Every restore of every owned partition. */
    List<TrackedRestore> all() {
        var all = new java.util.ArrayList<TrackedRestore>();
        byPartition.values().forEach(m -> all.addAll(m.values()));
        return all;
    }

    /**
     * Drops the restores that ended before {@code cutoff} and have no step or capacity put-back
     * left; returns how many.
     */
    int forgetEndedBefore(java.time.Instant cutoff) {
        int n = 0;
        for (Map<String, TrackedRestore> restores : byPartition.values()) {
            var it = restores.values().iterator();
            while (it.hasNext()) {
                TrackedRestore r = it.next();
                var v = r.view;
                if (!r.stepInFlight && v.state() != null && v.state().terminal() && !v.capacityToPutBack()
                        && !v.rollingBack() && v.updatedAt() != null && v.updatedAt().isBefore(cutoff)) {
                    it.remove();
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * The restore that {@code event} belongs to: a RestoreAccepted for an id whose restore ended
     * before {@code cutoff} starts a new one (the id was used again after the old one aged out).
     */
    TrackedRestore forEvent(int partition, io.dynarestore.contracts.status.RestoreEvent event,
                            java.time.Instant cutoff) {
        TrackedRestore r = get(partition, event.restoreId());
        if (r != null && event instanceof io.dynarestore.contracts.status.RestoreAccepted && endedBefore(r, cutoff)) {
            byPartition.get(partition).remove(event.restoreId());
        }
        return getOrCreate(partition, event.restoreId());
    }

    /** The restore of {@code restoreId}, unless it ended before {@code cutoff} (then it is forgotten). */
    TrackedRestore current(int partition, String restoreId, java.time.Instant cutoff) {
        TrackedRestore r = get(partition, restoreId);
        if (r != null && endedBefore(r, cutoff) && !r.stepInFlight) {
            byPartition.get(partition).remove(restoreId);
            return null;
        }
        return r;
    }

    private static boolean endedBefore(TrackedRestore r, java.time.Instant cutoff) {
        var v = r.view;
        return v.state() != null && v.state().terminal() && v.updatedAt() != null && v.updatedAt().isBefore(cutoff);
    }

    int size() {
        return byPartition.values().stream().mapToInt(Map::size).sum();
    }
}
