package io.dynarestore.exporter.files;

import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.ConsumerThread;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer-group member on one topic that hands each record to a handler on its own thread
 * and commits after the handler returns (at-least-once). For services whose handling is quick.
 */
public final class TopicFollower implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicFollower.class);

    private final ConsumerThread thread;

    public TopicFollower(
            Map<String, Object> baseConfig,
            String group,
            String topic,
            ConsumerHealth health,
            Consumer<ConsumerRecord<String, byte[]>> handler) {
        var config = new HashMap<>(baseConfig);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        this.thread = new ConsumerThread("follow-" + topic, config, health, c -> follow(c, topic, handler));
    }

    public void start() {
        thread.start();
    }

    private void follow(
            KafkaConsumer<String, byte[]> c, String topic, Consumer<ConsumerRecord<String, byte[]>> handler) {
        c.subscribe(List.of(topic));
        while (thread.running()) {
            var records = c.poll(Duration.ofMillis(500));
            for (ConsumerRecord<String, byte[]> record : records) {
                try {
                    handler.accept(record);
                } catch (RuntimeException e) {
                    log.warn("handler failed on {}-{}@{}", record.topic(), record.partition(), record.offset(), e);
                }
            }
            if (!records.isEmpty()) {
                c.commitSync();
            }
        }
    }

    @Override
    public void close() {
        thread.stop(Duration.ofSeconds(10));
    }
}
