package io.dynarestore.core.kafka;

import io.dynarestore.contracts.Topic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The topics every service may create at start (creation is idempotent: a topic that exists is
 * left as it is), each with its dead-letter topic of the same partition count.
 *
 * @param replicationFactor replicas of every topic
 * @param partitions        partition counts that differ from {@link Topic#defaultPartitions()}, by topic name
 */
public record TopicDefinitions(short replicationFactor, Map<String, Integer> partitions) {

    public TopicDefinitions {
        partitions = partitions == null ? Map.of() : Map.copyOf(partitions);
        if (replicationFactor < 1) {
            replicationFactor = 1;
        }
    }

    public static TopicDefinitions local() {
        return new TopicDefinitions((short) 1, Map.of());
    }

    public int partitions(Topic topic) {
        return partitions.getOrDefault(topic.topicName(), topic.defaultPartitions());
    }

    public List<NewTopic> newTopics() {
        var topics = new ArrayList<NewTopic>();
        for (Topic t : Topic.values()) {
            int n = partitions(t);
            var topic = new NewTopic(t.topicName(), n, replicationFactor);
            if (t == Topic.LINKS) { // a link's tries must outlive the link (the broker default is 7 days)
                topic.configs(Map.of("retention.ms", String.valueOf(Topic.LINKS_RETENTION.toMillis())));
            }
            if (t == Topic.PROTECTION) { // the latest policy of each table, kept for ever
                topic.configs(Map.of("cleanup.policy", "compact"));
            }
            topics.add(topic);
            topics.add(new NewTopic(t.dlt(), n, replicationFactor));
        }
        return topics;
    }

    /** Topic name to partition count, dead-letter topics included (for test brokers). */
    public Map<String, Integer> partitionCounts() {
        var map = new LinkedHashMap<String, Integer>();
        for (NewTopic t : newTopics()) {
            map.put(t.name(), t.numPartitions());
        }
        return map;
    }
}
