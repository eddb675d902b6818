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

    int size() {
        return byPartition.values().stream().mapToInt(Map::size).sum();
    }
}
