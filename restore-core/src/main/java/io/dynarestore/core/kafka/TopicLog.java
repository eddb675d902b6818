package io.dynarestore.core.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every partition of one topic from its beginning, without a consumer group, and hands
 * each record to {@code handler} on its own thread: how a service rebuilds a fold of a log
 * (links, deliveries) after a restart and shares it with its other replicas.
 *
 * <p>Rules: a record the handler throws on is skipped (logged), never the end of the fold. A
 * caller that needs the fold to include a record (its own write, or everything written before
 * now) waits for it with {@link #awaitPosition} or {@link #awaitCaughtUp}; both are bounded and
 * say whether the fold got there.
 */
public final class TopicLog implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicLog.class);

    private final String topic;
    private final Map<Integer, Long> positions = new ConcurrentHashMap<>();
    private final ConsumerThread thread;
    private final Object progress = new Object();
    private final AtomicLong endsWanted = new AtomicLong();
    /** End offsets fetched after request number {@code generation} was made. */
    private record Ends(long generation, Map<TopicPartition, Long> offsets) {}

    private volatile Ends ends = new Ends(0, Map.of());
    private volatile boolean assigned;

    public TopicLog(
            Map<String, Object> baseConsumerConfig,
            String name,
            String topic,
            ConsumerHealth health,
            Consumer<ConsumerRecord<String, byte[]>> handler) {
        this.topic = topic;
        var config = new HashMap<>(baseConsumerConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(
                ConsumerConfig.CLIENT_ID_CONFIG,
                name + "-" + ProcessHandle.current().pid());
        this.thread = new ConsumerThread(name, config, health, c -> follow(c, handler));
    }

    public void start() {
        thread.start();
    }

    private void follow(KafkaConsumer<String, byte[]> c, Consumer<ConsumerRecord<String, byte[]>> handler) {
        List<TopicPartition> partitions = c.partitionsFor(topic, Duration.ofSeconds(60)).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
        c.assign(partitions);
        c.seekToBeginning(partitions);
        for (TopicPartition p : partitions) {
            positions.put(p.partition(), c.position(p));
        }
        assigned = true;
        while (thread.running()) {
            for (ConsumerRecord<String, byte[]> record : c.poll(Duration.ofMillis(100))) {
                try {
                    handler.accept(record);
                } catch (RuntimeException e) {
                    // one record the fold cannot take must not stop the fold of every other
                    log.warn("{}-{}@{} skipped: {}", record.topic(), record.partition(), record.offset(), e.toString());
                }
                positions.put(record.partition(), record.offset() + 1);
            }
            for (TopicPartition p : partitions) {
                positions.put(p.partition(), c.position(p)); // also past transaction markers and compacted gaps
            }
            long wanted = endsWanted.get();
            if (wanted > ends.generation()) {
                ends = new Ends(wanted, c.endOffsets(partitions));
            }
            synchronized (progress) {
                progress.notifyAll();
            }
        }
    }

    /** Waits until the fold has read partition {@code partition} past {@code offset}; false on timeout. */
    public boolean awaitPosition(int partition, long offset, Duration timeout) {
        return await(() -> positions.getOrDefault(partition, -1L) > offset, timeout);
    }

    /** Waits until the fold has read everything written to the topic before this call; false on timeout. */
    public boolean awaitCaughtUp(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        if (!await(() -> assigned, timeout)) {
            return false;
        }
        long generation = endsWanted.incrementAndGet(); // the consumer thread fetches end offsets after this
        if (!await(() -> ends.generation() >= generation, Duration.between(Instant.now(), deadline))) {
            return false;
        }
        Map<TopicPartition, Long> target = ends.offsets();
        return await(
                () -> target.entrySet().stream()
                        .allMatch(e -> positions.getOrDefault(e.getKey().partition(), 0L) >= e.getValue()),
                Duration.between(Instant.now(), deadline));
    }

    private boolean await(BooleanSupplier condition, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        synchronized (progress) {
            while (!condition.getAsBoolean()) {
                long left = Duration.between(Instant.now(), deadline).toMillis();
                if (left <= 0 || !thread.running() && assigned) {
                    return condition.getAsBoolean();
                }
                try {
                    progress.wait(Math.min(left, 100));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    @Override
    public void close() {
        thread.stop(Duration.ofSeconds(10));
    }
}
