package io.dynarestore.planner.fleet;

import java.util.List;

/** The planner replicas that build delta parts now: the members of the {@code restore.planning} group. */
@FunctionalInterface
public interface PlanningFleet {

    /**
     * One partition of {@code restore.planning} held by each replica, a replica each: a part sent
     * there goes to that replica. Empty when it cannot be told, or when no replica reads the topic.
     */
    List<Integer> partitionPerReplica();
}
