package io.dynarestore.api.restores;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.core.kafka.Messages;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The tasks view of restore-api: every restore, folded from {@code restore.status} read from
 * its beginning. Each replica reads every partition itself (no consumer group), so every replica
 * sees every restore, and a restarted replica rebuilds its view from Kafka. Requests this replica
 * published but that no event has answered yet show as {@code REQUESTED}.
 */
final class RestoreViews implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RestoreViews.class);

    private final Map<String, Object> consumerConfig;
    private final Map<String, RestoreView> views = new ConcurrentHashMap<>();
    private final Map<String, RestoreView> pending = new ConcurrentHashMap<>();
    private volatile boolean running;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private Thread thread;

    RestoreViews(Map<String, Object> baseConsumerConfig) {
        var config = new HashMap<>(baseConsumerConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "restore-api-views-" + ProcessHandle.current().pid());
        this.consumerConfig = config;
    }

    /** The restore's summary, if any event (or this replica's own submission) named it. */
    Optional<RestoreView.Summary> find(String restoreId) {
        RestoreView view = views.get(restoreId);
        if (view == null) {
            view = pending.get(restoreId);
        }
        if (view == null) {
            return Optional.empty();
        }
        synchronized (view) {
            return Optional.of(view.summary());
        }
    }

    /** The request a restore was started with, if known. */
    Optional<RestoreRequested> request(String restoreId) {
        RestoreView view = views.getOrDefault(restoreId, pending.get(restoreId));
        if (view == null) {
            return Optional.empty();
        }
        synchronized (view) {
            return Optional.ofNullable(view.request());
        }
    }

    /** Records a request this replica published, until the planner answers it. */
    void submitted(RestoreRequested request) {
        pending.putIfAbsent(request.restoreId(), RestoreView.requested(request));
    }

    /** Waits until the planner answered the restore (or {@code timeout} passed) and returns its summary. */
    RestoreView.Summary awaitVerdict(String restoreId, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        synchronized (this) {
            while (!views.containsKey(restoreId) && Instant.now().isBefore(deadline)) {
                try {
                    wait(Math.max(1, Duration.between(Instant.now(), deadline).toMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return find(restoreId).orElseThrow();
    }

    void apply(RestoreEvent event) {
        RestoreView view = views.computeIfAbsent(event.restoreId(), RestoreView::new);
        synchronized (view) {
            view.apply(event);
        }
        if (pending.remove(event.restoreId()) != null || view.state() != RestoreState.REQUESTED) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    @Override
    public void start() {
        running = true;
        thread = new Thread(this::run, "restore-views");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try (var c = new KafkaConsumer<String, byte[]>(consumerConfig)) {
            consumer = c;
            List<TopicPartition> partitions = c.partitionsFor(Topic.STATUS.topicName(), Duration.ofSeconds(60))
                    .stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            c.assign(partitions);
            c.seekToBeginning(partitions);
            while (running) {
                for (ConsumerRecord<String, byte[]> record : c.poll(Duration.ofMillis(200))) {
                    RestoreEvent event = Messages.statusEvent(record.value());
                    if (event != null && event.restoreId() != null) {
                        apply(event);
                    }
                }
            }
        } catch (WakeupException e) {
            if (running) {
                log.error("restore views stopped", e);
            }
        } catch (RuntimeException e) {
            log.error("restore views stopped", e);
        }
    }

    @Override
    public void stop() {
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

    @Override
    public boolean isRunning() {
        return running;
    }
}
