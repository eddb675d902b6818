package io.dynarestore.writer.segments;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.commands.CancelRequested;
import io.dynarestore.contracts.commands.RestoreCommand;
import io.dynarestore.core.kafka.TopicLog;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The restores cancelled on {@code restore.commands}, read by every writer from the start (the
 * topic is small). A writer looks here between batches and before it starts a segment, so a
 * cancel stops writes within a batch's time wherever the segments are.
 */
final class Cancellations implements AutoCloseable {

    private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
    private final TopicLog log;

    Cancellations(Map<String, Object> consumerConfig) {
        this.log = new TopicLog(consumerConfig, "item-writer-commands", Topic.COMMANDS.topicName(), this::apply);
    }

    void start() {
        log.start();
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        try {
            if (Json.mapper().readValue(record.value(), RestoreCommand.class) instanceof CancelRequested c
                    && c.restoreId() != null) {
                cancelled.add(c.restoreId());
            }
        } catch (RuntimeException e) {
            // not a command; the planner sends it to the DLT
        }
    }

    boolean cancelled(String restoreId) {
        return cancelled.contains(restoreId);
    }

    @Override
    public void close() {
        log.close();
    }
}
