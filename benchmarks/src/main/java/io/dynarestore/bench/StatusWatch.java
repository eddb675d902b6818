package io.dynarestore.bench;

import io.dynarestore.core.kafka.Messages;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * One reader of {@code restore.status} for a whole run of rounds: it starts at the topic's end and reads
 * each round's events once, while the round runs. A new consumer per round that read the topic from its
 * start (every earlier round again) spent the bench's own CPU, and its JIT, inside the round it measured,
 * on the two cores the restore runs on.
 */
final class StatusWatch implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    /** Of the round's restore: each status event type's first and last publication, epoch ms. */
    private final Map<String, long[]> published = new LinkedHashMap<>();

    private StatusWatch(KafkaConsumer<String, byte[]> consumer) {
        this.consumer = consumer;
    }

    /** A watch that sees the events published from now on. */
    static StatusWatch fromNow(String bootstrap) {
        var consumer = BenchFixtures.statusFromStart(bootstrap);
        List<TopicPartition> partitions = List.copyOf(consumer.assignment());
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // resolves the end now, before any round's events
        return new StatusWatch(consumer);
    }

    /**
     * Waits for {@code restoreId}'s terminal event and returns its top-level fields with {@code publishedAt}
     * (epoch ms, its producer's clock); what the restore published before it is kept for {@link #printTimeline}.
     */
    Map<String, String> awaitEnd(String restoreId, Duration timeout) {
        published.clear();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (var record : consumer.poll(Duration.ofMillis(100))) {
                var event = Messages.statusEvent(record.value());
                if (event == null || !restoreId.equals(event.restoreId())) {
                    continue;
                }
                long at = record.timestamp();
                published.merge(event.getClass().getSimpleName(), new long[] {at, at}, (a, b) ->
                        new long[] {Math.min(a[0], at), Math.max(a[1], at)});
                if (event.terminal()) {
                    return PitrMemoryBench.endFields(record.value(), at);
                }
            }
        }
        throw new IllegalStateException("restore " + restoreId + " did not end within " + timeout);
    }

    /** Prints when each of the last awaited restore's event types was first and last published, from {@code origin}. */
    void printTimeline(String label, long origin) {
        var lines = new LinkedHashMap<String, Long>();
        published.forEach((type, at) -> {
            lines.put(type + " first", at[0] - origin);
            lines.put(type + " last", at[1] - origin);
        });
        lines.entrySet().stream()
                .sorted(Map.Entry.comparingByValue())
                .forEach(e -> System.out.printf("%s: +%,6d ms %s%n", label, e.getValue(), e.getKey()));
    }

    @Override
    public void close() {
        consumer.close();
    }
}
