package io.dynarestore.writer.capacity;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This replica's share of every budget: the share of the pending segments (the writer group's
 * lag on {@code restore.segments}, counting segments under way) that sit on the partitions its
 * consumers own. So a replica whose partitions hold more work writes faster, and one without
 * work leaves its share to the others; a rebalance or a finished segment re-splits it. Without a
 * lag reading (none yet, or nothing pending) it is the share of partitions owned.
 *
 * <p>Replicas read the lag at different moments, so a share that grows is applied only when two
 * readings in a row agree, and by at most {@link #MAX_GROWTH} per reading, while one that shrinks
 * applies at once: by the time a replica takes more, the others have mostly had a reading to give
 * it up. Work that comes and goes between readings can still make the shares add up to a little
 * more than one for a reading or two; the property test bounds it, and the limiter's 10% headroom
 * absorbs it.
 */
final class ReplicaShare {

    /** The most a share grows by per reading, which bounds what stale readings can add up to. */
    static final double MAX_GROWTH = 0.05;

    private final Set<Integer> owned = ConcurrentHashMap.newKeySet();
    private volatile int total;
    private volatile double lagShare = -1;
    private double pending = -1;

    void assigned(Collection<Integer> partitions) {
        owned.addAll(partitions);
    }

    void revoked(Collection<Integer> partitions) {
        owned.removeAll(partitions); // the share itself changes with the next lag reading
    }

    void totalPartitions(int partitions) {
        total = partitions;
    }

    /** A reading of the group's lag: pending segments by partition. */
    synchronized void lag(Map<Integer, Long> lagByPartition) {
        long all = 0;
        long mine = 0;
        for (var e : lagByPartition.entrySet()) {
            long lag = Math.max(0, e.getValue());
            all += lag;
            if (owned.contains(e.getKey())) {
                mine += lag;
            }
        }
        if (all == 0) {
            lagShare = -1;
            pending = -1;
            return;
        }
        double now = (double) mine / all;
        double current = effective();
        if (now <= current) {
            lagShare = now;
        } else if (pending > current) {
            // grow only as far as two readings in a row agree, and by a bounded step per reading
            lagShare = Math.min(Math.min(now, pending), current + MAX_GROWTH);
        }
        pending = now;
    }

    private double effective() {
        double l = lagShare;
        return l >= 0 ? l : partitionShare();
    }

    private double partitionShare() {
        int t = total;
        if (t <= 0) {
            return 1.0;
        }
        return Math.min(1.0, owned.size() / (double) t);
    }

    /** The share of the budget this replica writes at; a small floor keeps a lone segment moving. */
    double share() {
        return Math.max(effective(), total <= 0 ? 1.0 : 0.5 / total);
    }
}
