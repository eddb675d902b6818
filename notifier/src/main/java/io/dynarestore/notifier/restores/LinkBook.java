package io.dynarestore.notifier.restores;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.links.LinkEvent;
import io.dynarestore.contracts.links.LinkIssued;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.TopicLog;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The links restore-api issued, by restore id, folded from {@code restore.links}. */
final class LinkBook implements AutoCloseable {

    private final Map<String, LinkIssued> byRestore = new ConcurrentHashMap<>();
    private final TopicLog log;

    LinkBook(Map<String, Object> consumerConfig, ConsumerHealth health) {
        this.log = new TopicLog(consumerConfig, "notifier-links", Topic.LINKS.topicName(), health, this::apply);
    }

    void start() {
        log.start();
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        try {
            if (Json.mapper().readValue(record.value(), LinkEvent.class) instanceof LinkIssued issued) {
                byRestore.put(issued.restoreId(), issued);
            }
        } catch (RuntimeException e) {
            // not a link event
        }
    }

    /** The link of a restore, after reading every link issued before this call (bounded by {@code wait}). */
    Optional<LinkIssued> of(String restoreId, Duration wait) {
        if (!byRestore.containsKey(restoreId)) {
            log.awaitCaughtUp(wait);
        }
        return Optional.ofNullable(byRestore.get(restoreId));
    }

    @Override
    public void close() {
        log.close();
    }
}
