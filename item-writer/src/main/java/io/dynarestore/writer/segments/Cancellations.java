package io.dynarestore.writer.segments;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.commands.CancelRequested;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.TopicLog;
import io.dynarestore.core.request.CommandReader;
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

    Cancellations(Map<String, Object> consumerConfig, ConsumerHealth health) {
        this.log =
                new TopicLog(consumerConfig, "item-writer-commands", Topic.COMMANDS.topicName(), health, this::apply);
    }

    void start() {
        log.start();
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        // the command's schema pins its restore id; a message that is not one the planner sends to the DLT
        if (CommandReader.read(record.value()) instanceof CommandReader.Valid v
                && v.command() instanceof CancelRequested c) {
            cancelled.add(c.restoreId());
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
