package io.dynarestore.core.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka consumer (String keys, raw values) owned by one thread, which runs {@code body}
 * until {@link #stop()}: a stop wakes the consumer out of {@code poll()}, the body returns and
 * the consumer is closed on its own thread (a KafkaConsumer is not thread-safe). A thread that
 * ends any other way is reported to its service's {@link ConsumerHealth}, which turns liveness DOWN.
 */
public final class ConsumerThread {

    private static final Logger log = LoggerFactory.getLogger(ConsumerThread.class);
    /** How long a close may wait to leave the group and commit; the group reassigns after its session timeout anyway. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final String name;
    private final Map<String, Object> config;
    private final Consumer<KafkaConsumer<String, byte[]>> body;
    private final ConsumerHealth health;
    private volatile boolean running;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private Thread thread;

    public ConsumerThread(
            String name,
            Map<String, Object> config,
            ConsumerHealth health,
            Consumer<KafkaConsumer<String, byte[]>> body) {
        var c = new HashMap<>(config);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.putIfAbsent(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.name = name;
        this.config = c;
        this.body = body;
        this.health = health;
    }

    public void start() {
        running = true;
        health.started(name);
        thread = new Thread(this::run, name);
        thread.start();
    }

    /** Whether the body should go on: true until {@link #stop()}. */
    public boolean running() {
        return running;
    }

    private void run() {
        String why = "its loop returned while the service was running";
        KafkaConsumer<String, byte[]> c = null;
        try {
            c = new KafkaConsumer<>(config);
            consumer = c;
            body.accept(c);
        } catch (WakeupException e) {
            why = "woken up while running";
        } catch (RuntimeException | Error e) {
            why = e.toString();
            log.error("{} stopped: it reads nothing more until the service is restarted (liveness is DOWN)", name, e);
        } finally {
            // reported before the close, which may wait on the group coordinator
            if (running) {
                running = false;
                health.stoppedUnexpectedly(name, why);
                log.error("consumer thread {} ended: {}; liveness is DOWN", name, why);
            }
            if (c != null) {
                close(c);
            }
        }
    }

    private void close(KafkaConsumer<String, byte[]> c) {
        try {
            c.close(CloseOptions.timeout(CLOSE_TIMEOUT));
        } catch (RuntimeException e) {
            log.warn(
                    "{}: closing its consumer failed ({}); the group hands its partitions on after the session "
                            + "timeout",
                    name,
                    e.toString());
        }
    }

    /** Stops the body and waits (bounded) for the thread to end. */
    public void stop(Duration wait) {
        if (running) {
            health.stoppedOnPurpose(name);
        }
        running = false;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(wait.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
