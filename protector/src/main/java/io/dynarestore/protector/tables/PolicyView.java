package io.dynarestore.protector.tables;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.ProtectionPolicyEvent;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.TopicLog;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Every table's latest policy and the partition it is keyed to, from the whole compacted policy
 * topic (no consumer group: every replica reads all of it), so that a replica can run a shard group
 * of a table whose policy is on a partition another replica owns (ADR 0025). The same rule as the
 * owner's: a policy that breaks {@link ProtectionSet#problems()}, or is not keyed to its table, is
 * ignored; a tombstone removes it.
 */
final class PolicyView implements AutoCloseable {

    /** A policy and the partition of the policy topic it is keyed to. */
    record Placed(ProtectionSet policy, int partition) {}

    private final Map<String, Placed> policies = new ConcurrentHashMap<>();
    private final TopicLog log;

    PolicyView(Map<String, Object> consumerConfig, ConsumerHealth health, Runnable changed) {
        this.log =
                new TopicLog(consumerConfig, "protector-policy-view", Topic.PROTECTION.topicName(), health, record -> {
                    if (apply(record)) {
                        changed.run();
                    }
                });
    }

    void start() {
        log.start();
    }

    List<Placed> policies() {
        return List.copyOf(policies.values());
    }

    /** Returns whether a policy split into shard groups came, changed or went. */
    private boolean apply(ConsumerRecord<String, byte[]> record) {
        Placed before;
        if (record.value() == null) {
            before = policies.remove(record.key());
            return before != null && before.policy().shardGroups() > 1;
        }
        var policy = (ProtectionSet) Json.mapper().readValue(record.value(), ProtectionPolicyEvent.class);
        if (!policy.subject().equals(record.key()) || !policy.problems().isEmpty()) {
            return false;
        }
        before = policies.put(record.key(), new Placed(policy, record.partition()));
        return policy.shardGroups() > 1 || before != null && before.policy().shardGroups() > 1;
    }

    @Override
    public void close() {
        log.close();
    }
}
