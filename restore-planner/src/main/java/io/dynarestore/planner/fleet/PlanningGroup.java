package io.dynarestore.planner.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The planning group as its coordinator knows it: each member's lowest assigned partition of
 * {@code restore.planning}, so that the parts of a delta go one to a replica (a key's hash would
 * put two parts on one replica about as often as not). When the broker cannot tell within
 * {@code timeout}, no replica: the restore's own planner builds its delta.
 */
public final class PlanningGroup implements PlanningFleet, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PlanningGroup.class);

    private final Map<String, Object> adminConfig;
    private final String group;
    private final String topic;
    private final Duration timeout;

    public PlanningGroup(Map<String, Object> adminConfig, String group, String topic, Duration timeout) {
        this.adminConfig = Map.copyOf(adminConfig);
        this.group = group;
        this.topic = topic;
        this.timeout = timeout;
    }

    private Admin admin;

    /** The admin client, made at the first question: most planners never share a delta. */
    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(adminConfig);
        }
        return admin;
    }

    @Override
    public List<Integer> partitionPerReplica() {
        try {
            var description = admin().describeConsumerGroups(
                            List.of(group), new DescribeConsumerGroupsOptions().timeoutMs((int) timeout.toMillis()))
                    .describedGroups()
                    .get(group)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            var members = new ArrayList<>(description.members());
            members.sort(Comparator.comparing(MemberDescription::consumerId));
            var partitions = new ArrayList<Integer>();
            for (MemberDescription m : members) {
                m.assignment().topicPartitions().stream()
                        .filter(tp -> tp.topic().equals(topic))
                        .mapToInt(TopicPartition::partition)
                        .min()
                        .ifPresent(partitions::add);
            }
            return List.copyOf(partitions);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (Exception e) {
            log.warn("the members of {} could not be told ({}); the delta is built here", group, e.toString());
            return List.of();
        }
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
