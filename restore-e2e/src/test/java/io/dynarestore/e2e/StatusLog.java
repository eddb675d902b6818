package io.dynarestore.e2e;

import io.dynarestore.contracts.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a topic from its beginning in the background, as a dashboard with a plain Kafka client
 * would, keeping every record as raw JSON with its headers.
 */
final class StatusLog implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<Entry> entries = new CopyOnWriteArrayList<>();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private volatile boolean running = true;

    record Entry(String key, int partition, JsonNode json, String raw, Map<String, String> headers) {
        String type() {
            return json == null || json.get("type") == null ? null : json.get("type").asString();
        }

        String restoreId() {
            return json == null || json.get("restoreId") == null ? null : json.get("restoreId").asString();
        }
    }

    StatusLog(String bootstrapServers, String topic) {
        var config = new HashMap<String, Object>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumer = new KafkaConsumer<>(config);
        var partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, "status-log-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    static StatusLog status(RestoreStack stack) {
        return new StatusLog(stack.kafka.bootstrapServers(), Topic.STATUS.topicName());
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    String raw = r.value() == null ? null : new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
                    JsonNode json;
                    try {
                        json = raw == null ? null : JSON.readTree(raw);
                    } catch (RuntimeException e) {
                        json = null;
                    }
                    var headers = new HashMap<String, String>();
                    r.headers().forEach(h -> headers.put(h.key(), new String(h.value(),
                            java.nio.charset.StandardCharsets.UTF_8)));
                    entries.add(new Entry(r.key() == null ? null : new String(r.key()), r.partition(), json, raw,
                            headers));
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    List<Entry> all() {
        return new ArrayList<>(entries);
    }

    List<Entry> of(String restoreId) {
        return entries.stream().filter(e -> restoreId.equals(e.restoreId())).toList();
    }

    List<String> typesOf(String restoreId) {
        return of(restoreId).stream().map(Entry::type).toList();
    }

    JsonNode last(String restoreId, String type) {
        var list = of(restoreId).stream().filter(e -> type.equals(e.type())).toList();
        return list.isEmpty() ? null : list.get(list.size() - 1).json();
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
