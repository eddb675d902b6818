package io.dynarestore.notifier.restores;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.links.LinkIssued;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.notifier.deliveries.DeliveryLog;
import io.dynarestore.notifier.deliveries.Dispatcher;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The notifier's member of its consumer group on {@code restore.status}. It keeps, per partition,
 * the restores that were accepted and have not ended (their request says whom to tell), and sends
 * the notices of each restore when it ends.
 *
 * <p>Rule: the committed offset of a partition never passes the {@code RestoreAccepted} of a
 * restore that has not ended, so a restarted notifier reads again what it needs to know whom to
 * tell; everything it reads again that was already sent is skipped by the {@link DeliveryLog}.
 * A restore open longer than {@code maxOpen} stops holding the offset back (and is not notified).
 */
public final class StatusFollower implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StatusFollower.class);

    private record Open(RestoreRequested request, long offset, Instant acceptedAt, ExportCompleted file) {
        Open withFile(ExportCompleted f) {
            return new Open(request, offset, acceptedAt, f);
        }
    }

    private static final class PartitionState {
        final Map<String, Open> open = new LinkedHashMap<>();
        long next = -1;
    }

    private final ConsumerThread thread;
    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    private final DeliveryLog deliveries;
    private final LinkBook links;
    private final Dispatcher dispatcher;
    private final Notices notices;
    private final Duration logWait;
    private final Duration maxOpen;

    public StatusFollower(Map<String, Object> baseConfig, String group, DeliveryLog deliveries,
                          Map<String, Object> linkConsumerConfig, Dispatcher dispatcher, String publicUrl,
                          Duration logWait, Duration maxOpen) {
        var config = new HashMap<>(baseConfig);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) Duration.ofMinutes(10).toMillis());
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
        this.deliveries = deliveries;
        this.links = new LinkBook(linkConsumerConfig);
        this.dispatcher = dispatcher;
        this.notices = new Notices(publicUrl);
        this.logWait = logWait;
        this.maxOpen = maxOpen;
        this.thread = new ConsumerThread("notifier-status", config, this::follow);
    }

    public void start() {
        deliveries.start();
        links.start();
        thread.start();
    }

    private void follow(KafkaConsumer<String, byte[]> c) {
        c.subscribe(List.of(Topic.STATUS.topicName()), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
                commit(c, revoked);
                revoked.forEach(partitions::remove);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
                assigned.forEach(tp -> partitions.put(tp, new PartitionState()));
            }
        });
        while (thread.running()) {
            var records = c.poll(Duration.ofMillis(500));
            try {
                for (ConsumerRecord<String, byte[]> record : records) {
                    handle(new TopicPartition(record.topic(), record.partition()), record);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // stopping: what was not committed is read again by the next member
            }
            if (!records.isEmpty()) {
                commit(c, partitions.keySet());
            }
        }
        commit(c, partitions.keySet());
    }

    private void handle(TopicPartition tp, ConsumerRecord<String, byte[]> record) throws InterruptedException {
        PartitionState state = partitions.computeIfAbsent(tp, p -> new PartitionState());
        state.next = record.offset() + 1;
        RestoreEvent event = Messages.statusEvent(record.value());
        if (event == null || event.restoreId() == null) {
            return;
        }
        if (event instanceof RestoreAccepted accepted && accepted.request() != null) {
            state.open.putIfAbsent(event.restoreId(), new Open(accepted.request(), record.offset(),
                    accepted.occurredAt() == null ? Instant.now() : accepted.occurredAt(), null));
        } else if (event instanceof ExportCompleted file) {
            state.open.computeIfPresent(event.restoreId(), (id, open) -> open.withFile(file));
        }
        if (!event.terminal()) {
            return;
        }
        Open open = state.open.remove(event.restoreId());
        if (open == null) {
            return; // rejected before acceptance, or accepted before this notifier's history: no one to tell
        }
        LinkIssued link = null;
        if (open.request().destination() instanceof Destination.File f
                && f.delivery() instanceof Destination.Delivery.Email) {
            link = links.of(event.restoreId(), logWait).orElse(null);
            if (link == null) {
                log.warn("restore {} asks for an email link, but restore-api issued none (was it published to Kafka "
                        + "directly?); its recipients get no mail", event.restoreId());
            }
        }
        var batch = notices.of(open.request(), open.file(), link, event);
        if (batch.isEmpty()) {
            return;
        }
        while (!deliveries.awaitCaughtUp(logWait)) {
            log.warn("the delivery log {} is not readable; waiting before notifying of {}",
                    Topic.NOTIFICATIONS.topicName(), event.restoreId());
            if (!thread.running()) {
                throw new InterruptedException("stopping");
            }
        }
        dispatcher.dispatch(batch);
    }

    private void commit(KafkaConsumer<String, byte[]> c, Collection<TopicPartition> which) {
        var offsets = new HashMap<TopicPartition, OffsetAndMetadata>();
        Instant oldest = Instant.now().minus(maxOpen);
        for (TopicPartition tp : which) {
            PartitionState state = partitions.get(tp);
            if (state == null || state.next < 0) {
                continue;
            }
            state.open.values().removeIf(open -> {
                boolean stale = open.acceptedAt().isBefore(oldest);
                if (stale) {
                    log.warn("restore {} is open since {}; it no longer holds the committed offset back and will "
                            + "not be notified", open.request().restoreId(), open.acceptedAt());
                }
                return stale;
            });
            long offset = state.open.values().stream().mapToLong(Open::offset).min().orElse(state.next);
            offsets.put(tp, new OffsetAndMetadata(offset));
        }
        if (!offsets.isEmpty()) {
            c.commitSync(offsets);
        }
    }

    @Override
    public void close() {
        thread.stop(Duration.ofSeconds(30));
        links.close();
        deliveries.close();
    }
}
