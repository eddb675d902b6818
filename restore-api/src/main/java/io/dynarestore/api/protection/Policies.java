package io.dynarestore.api.protection;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.ProtectionPolicyEvent;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicLog;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Every table's protection policy, as the compacted {@code restore.protection} topic holds it: each
 * replica folds the whole topic from its start, and a change made here is waited for in the fold
 * before it is answered, so that a GET after a PUT sees it on this replica. A record that breaks
 * {@link ProtectionSet#problems()} (only an upstream system can write one) is not a table's policy
 * here either: the fold keeps the one before, as the protector does.
 */
public final class Policies implements AutoCloseable {

    /** Policies kept in memory at most: one per protected table. */
    static final int MAX_TABLES = 100_000;

    private final Map<String, ProtectionSet> byTable = new ConcurrentHashMap<>();
    private final TopicLog log;
    private final EventPublisher publisher;
    private final Duration wait;

    Policies(Map<String, Object> consumerConfig, EventPublisher publisher, ConsumerHealth health, Duration wait) {
        this.publisher = publisher;
        this.wait = wait;
        this.log = new TopicLog(
                consumerConfig, "restore-api-protection", Topic.PROTECTION.topicName(), health, this::apply);
    }

    public void start() {
        log.start();
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null) {
            byTable.remove(record.key());
            return;
        }
        var policy = (ProtectionSet) Json.mapper().readValue(record.value(), ProtectionPolicyEvent.class);
        if (!policy.subject().equals(record.key()) || !policy.problems().isEmpty()) {
            return; // the protector does not apply it either (it is on restore.protection.DLT, with its reason)
        }
        if (byTable.size() < MAX_TABLES || byTable.containsKey(record.key())) {
            byTable.put(record.key(), policy);
        }
    }

    /** The policy of {@code account/region/table}, after reading the topic up to now. */
    public Optional<ProtectionSet> of(String account, String region, String table) {
        log.awaitCaughtUp(wait);
        return Optional.ofNullable(byTable.get(Topic.tableKey(account, region, table)));
    }

    /** Publishes {@code policy} and waits until the fold has it. */
    void set(ProtectionSet policy) {
        var at = EventPublisher.await(publisher.send(Topic.PROTECTION, policy.subject(), policy));
        log.awaitPosition(at.partition(), at.offset(), wait);
    }

    /** Ends the protection of a table (a tombstone) and waits until the fold has it. */
    void end(String account, String region, String table) {
        var at = publisher.sendRecord(
                new ProducerRecord<>(Topic.PROTECTION.topicName(), Topic.tableKey(account, region, table), null));
        log.awaitPosition(at.partition(), at.offset(), wait);
    }

    @Override
    public void close() {
        log.close();
    }
}
