package io.dynarestore.core.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer-group member on one topic that hands each record to a handler on its own thread
 * and commits after the handler returns (at-least-once). For services whose handling is quick.
 */
public final class TopicFollower implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicFollower.class);

    private final Map<String, Object> config;
    private final String topic;
    private final Consumer<ConsumerRecord<String, byte[]>> handler;
    private volatile boolean running;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private Thread thread;

    public TopicFollower(Map<String, Object> baseConfig, String group, String topic,
                         Consumer<ConsumerRecord<String, byte[]>> handler) {
        var c = new HashMap<>(baseConfig);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        this.config = c;
        this.topic = topic;
        this.handler = handler;
    }

    public void start() {
        running = true;
        thread = new Thread(this::run, "follow-" + topic);
        thread.start();
    }

    public boolean isRunning() {
        return running;
    }

    private void run() {
        try (var c = new KafkaConsumer<String, byte[]>(config)) {
            consumer = c;
            c.subscribe(List.of(topic));
            while (running) {
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
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
