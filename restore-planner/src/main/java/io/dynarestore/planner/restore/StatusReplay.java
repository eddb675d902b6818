package io.dynarestore.planner.restore;

import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.core.kafka.Messages;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Folds status partitions the planner just gained from their start to their current end, with a
 * consumer of its own outside the group, so that its view of every restore there is the log's
 * before it takes a step.
 */
final class StatusReplay {

    private final Map<String, Object> consumerConfig;
    private final OwnedRestores owned;

    StatusReplay(Map<String, Object> consumerConfig, OwnedRestores owned) {
        this.consumerConfig = consumerConfig;
        this.owned = owned;
    }

    /** Folds the given status partitions from their start to their current end. */
    Map<TopicPartition, Long> replay(List<TopicPartition> status) {
        var config = new HashMap<>(consumerConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(
                ConsumerConfig.CLIENT_ID_CONFIG,
                "restore-planner-replay-" + ProcessHandle.current().pid());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        try (var replayer = new KafkaConsumer<String, byte[]>(config)) {
            replayer.assign(status);
            replayer.seekToBeginning(status);
            Map<TopicPartition, Long> ends = replayer.endOffsets(status);
            for (TopicPartition tp : status) {
                owned.own(tp.partition());
            }
            while (status.stream().anyMatch(tp -> replayer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<String, byte[]> record : replayer.poll(Duration.ofMillis(200))) {
                    if (record.offset() >= ends.get(new TopicPartition(record.topic(), record.partition()))) {
                        continue;
                    }
                    RestoreEvent event = Messages.statusEvent(record.value());
                    if (event != null && event.restoreId() != null) {
                        owned.forEvent(record.partition(), event).applyFromLog(event);
                    }
                }
            }
            return ends;
        }
    }
}
