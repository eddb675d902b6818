package io.dynarestore.testkit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * Topics read from their beginning by a plain consumer without a group, as a dashboard reads
 * {@code restore.status}: every record kept with its key, partition, bytes and headers, and the
 * ones that carry a {@code restoreId} indexed by it. It rides out broker restarts the way any Kafka
 * client does. Follow in the background ({@link #follow}) or read once up to the current end
 * ({@link #readToEnd}).
 */
public final class TopicRecorder implements AutoCloseable {

    /** The terminal events of a restore on {@code restore.status}. */
    public static final Set<String> TERMINAL =
            Set.of("RestoreCompleted", "RestoreFailed", "RestoreCancelled", "RestoreRejected");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<Entry> entries = new CopyOnWriteArrayList<>();
    private final Map<String, List<Entry>> byRestore = new ConcurrentHashMap<>();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private volatile boolean running = true;

    /** One record: its JSON is parsed once, on demand ({@code null} where the value is not JSON). */
    public static final class Entry {
        private final String topic;
        private final String key;
        private final int partition;
        private final byte[] value;
        private final Map<String, String> headers;
        private volatile JsonNode json;
        private volatile boolean parsed;

        Entry(ConsumerRecord<byte[], byte[]> r) {
            topic = r.topic();
            key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
            partition = r.partition();
            value = r.value();
            var h = new HashMap<String, String>();
            r.headers().forEach(header -> h.put(header.key(), new String(header.value(), StandardCharsets.UTF_8)));
            headers = Map.copyOf(h);
        }

        public String topic() {
            return topic;
        }

        public String key() {
            return key;
        }

        public int partition() {
            return partition;
        }

        /** The value as sent ({@code null} for a tombstone). */
        public byte[] value() {
            return value;
        }

        public String raw() {
            return value == null ? null : new String(value, StandardCharsets.UTF_8);
        }

        public Map<String, String> headers() {
            return headers;
        }

        public JsonNode json() {
            if (!parsed) {
                try {
                    json = value == null ? null : JSON.readTree(value);
                } catch (RuntimeException e) {
                    json = null;
                }
                parsed = true;
            }
            return json;
        }

        public String type() {
            return text("type");
        }

        public String restoreId() {
            return text("restoreId");
        }

        private String text(String field) {
            JsonNode j = json();
            return j == null || !j.hasNonNull(field) ? null : j.get(field).asString();
        }
    }

    private TopicRecorder(String bootstrapServers, List<String> topics) {
        consumer = consumer(bootstrapServers);
        var partitions = partitions(consumer, topics);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, "topic-recorder-" + String.join(",", topics));
        thread.setDaemon(true);
        thread.start();
    }

    /** Follows {@code topics} from their beginning in the background until closed. */
    public static TopicRecorder follow(String bootstrapServers, String... topics) {
        return new TopicRecorder(bootstrapServers, List.of(topics));
    }

    /** Every record of {@code topic} up to its end offsets as of now, read within {@code timeout}. */
    public static List<Entry> readToEnd(String bootstrapServers, String topic, Duration timeout) {
        try (var consumer = consumer(bootstrapServers)) {
            var partitions = partitions(consumer, List.of(topic));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var ends = consumer.endOffsets(partitions);
            var out = new ArrayList<Entry>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end within " + timeout);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(r -> out.add(new Entry(r)));
            }
            return out;
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrapServers) {
        return new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, List<String> topics) {
        var partitions = new ArrayList<TopicPartition>();
        for (String topic : topics) {
            consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        }
        return partitions;
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    var entry = new Entry(r);
                    entries.add(entry);
                    String restoreId = entry.restoreId();
                    if (restoreId != null) {
                        byRestore
                                .computeIfAbsent(restoreId, k -> new CopyOnWriteArrayList<>())
                                .add(entry);
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    /** Every record so far, in the order read. */
    public List<Entry> all() {
        return List.copyOf(entries);
    }

    /** The records so far of one of the followed topics. */
    public List<Entry> on(String topic) {
        return entries.stream().filter(e -> topic.equals(e.topic())).toList();
    }

    /** The records so far that carry {@code restoreId}. */
    public List<Entry> of(String restoreId) {
        return List.copyOf(byRestore.getOrDefault(restoreId, List.of()));
    }

    public List<String> typesOf(String restoreId) {
        return of(restoreId).stream().map(Entry::type).toList();
    }

    /** The last event of {@code type} of the restore, or {@code null}. */
    public JsonNode last(String restoreId, String type) {
        JsonNode found = null;
        for (Entry e : byRestore.getOrDefault(restoreId, List.of())) {
            if (type.equals(e.type())) {
                found = e.json();
            }
        }
        return found;
    }

    public boolean has(String restoreId, String type) {
        return last(restoreId, type) != null;
    }

    /** The restore's first terminal event, or {@code null} while it runs. */
    public JsonNode terminal(String restoreId) {
        for (Entry e : byRestore.getOrDefault(restoreId, List.of())) {
            if (TERMINAL.contains(e.type())) {
                return e.json();
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
