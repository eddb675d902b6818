package io.dynarestore.writer.capacity;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * This replica's share of every budget: the share of {@code restore.segments} partitions its
 * consumers own. A rebalance re-splits it, so the replicas' shares add up to at most one (with
 * cooperative rebalancing a partition is revoked before it is assigned elsewhere).
 */
final class ReplicaShare {

    private final AtomicInteger owned = new AtomicInteger();
    private volatile int total;

    void assigned(int partitions) {
        owned.addAndGet(partitions);
    }

    void revoked(int partitions) {
        owned.addAndGet(-partitions);
    }

    void totalPartitions(int partitions) {
        total = partitions;
    }

    /** At least one partition's share while it writes anything at all. */
    double share() {
        int t = total;
        if (t <= 0) {
            return 1.0;
        }
        return Math.min(1.0, Math.max(1, owned.get()) / (double) t);
    }
}
