package io.dynarestore.chaos;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code restore.status} read from its beginning by a plain consumer, as a dashboard reads it;
 * it rides out broker restarts the way any Kafka client does.
 */
final class StatusFeed implements AutoCloseable {

    static final Set<String> TERMINAL = Set.of("RestoreCompleted", "RestoreFailed", "RestoreCancelled",
            "RestoreRejected");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, List<JsonNode>> events = new ConcurrentHashMap<>();
    private final KafkaConsumer<String, String> consumer;
    private final Thread thread;
    private volatile boolean running = true;

    StatusFeed(String bootstrap) {
        var config = new HashMap<String, Object>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumer = new KafkaConsumer<>(config);
        var partitions = consumer.partitionsFor("restore.status").stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::poll, "status-feed");
        thread.setDaemon(true);
        thread.start();
    }

    private void poll() {
        try {
            while (running) {
                for (var record : consumer.poll(Duration.ofMillis(200))) {
                    JsonNode json;
                    try {
                        json = JSON.readTree(record.value());
                    } catch (RuntimeException e) {
                        continue;
                    }
                    if (json.hasNonNull("restoreId")) {
                        events.computeIfAbsent(json.get("restoreId").asString(), k -> new CopyOnWriteArrayList<>())
                                .add(json);
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    List<JsonNode> of(String restoreId) {
        return events.getOrDefault(restoreId, List.of());
    }

    JsonNode last(String restoreId, String type) {
        JsonNode found = null;
        for (JsonNode e : of(restoreId)) {
            if (type.equals(e.path("type").asString())) {
                found = e;
            }
        }
        return found;
    }

    boolean has(String restoreId, String type) {
        return last(restoreId, type) != null;
    }

    /** The restore's terminal event, or {@code null} while it runs. */
    JsonNode terminal(String restoreId) {
        for (JsonNode e : of(restoreId)) {
            if (TERMINAL.contains(e.path("type").asString())) {
                return e;
            }
        }
        return null;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
