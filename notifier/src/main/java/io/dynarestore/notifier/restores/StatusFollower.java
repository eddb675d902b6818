package io.dynarestore.notifier.restores;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.links.LinkIssued;
import io.dynarestore.contracts.notifications.NotificationsRequested;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.core.kafka.ConsumerHealth;
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
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The notifier's member of its consumer group on {@code restore.status}. It keeps, per partition,
 * the restores that were accepted and whose notices are not sent yet, and hands the notices of
 * each restore to the {@link Dispatcher} when it ends.
 *
 * <p>Rules: the committed offset of a partition never passes the {@code RestoreAccepted} of a
 * restore whose notices are not all finished, so a restarted notifier reads again what it needs;
 * everything it reads again that was already sent is skipped by the {@link DeliveryLog}. Deliveries
 * run on the dispatcher's pool, never on this thread: a slow receiver holds up nothing here. While
 * more than {@code maxPending} deliveries wait, this member pauses its partitions (and keeps
 * polling, so it stays in the group). A restore open longer than {@code maxOpen} stops holding the
 * offset back (and is not notified).
 */
public final class StatusFollower implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StatusFollower.class);

    /** An accepted restore: what its notices need, and the deliveries under way once it ended. */
    private record Open(
            RestoreRequested request,
            String principal,
            long offset,
            Instant acceptedAt,
            ExportCompleted file,
            CompletableFuture<Void> delivering) {
        Open withFile(ExportCompleted f) {
            return new Open(request, principal, offset, acceptedAt, f, delivering);
        }

        Open delivering(CompletableFuture<Void> d) {
            return new Open(request, principal, offset, acceptedAt, file, d);
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
    private final int maxPending;
    private boolean paused;

    /**
     * @param maxPending deliveries waiting at most before this member pauses its partitions
     */
    public StatusFollower(
            Map<String, Object> baseConfig,
            String group,
            DeliveryLog deliveries,
            Map<String, Object> linkConsumerConfig,
            Dispatcher dispatcher,
            String publicUrl,
            Duration logWait,
            Duration maxOpen,
            int maxPending,
            ConsumerHealth health) {
        var config = new HashMap<>(baseConfig);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int)
                Duration.ofMinutes(10).toMillis());
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
        this.deliveries = deliveries;
        this.links = new LinkBook(linkConsumerConfig, health);
        this.dispatcher = dispatcher;
        this.notices = new Notices(publicUrl);
        this.logWait = logWait;
        this.maxOpen = maxOpen;
        this.maxPending = maxPending;
        this.thread = new ConsumerThread("notifier-status", config, health, this::follow);
    }

    /** Starts following; the delivery log, shared with the alerts, is started by its owner. */
    public void start() {
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
                if (paused) {
                    c.pause(assigned);
                }
            }
        });
        long nextCommit = 0;
        while (thread.running()) {
            var records = c.poll(Duration.ofMillis(500));
            for (ConsumerRecord<String, byte[]> record : records) {
                handle(new TopicPartition(record.topic(), record.partition()), record);
            }
            throttle(c);
            // deliveries that finished meanwhile let the committed offset move on, records or not
            if (!records.isEmpty() || System.nanoTime() - nextCommit > 0) {
                commit(c, partitions.keySet());
                nextCommit = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            }
        }
        commit(c, partitions.keySet());
    }

    /** Pauses reading while too many deliveries wait, and resumes when they drained below half. */
    private void throttle(KafkaConsumer<String, byte[]> c) {
        int pending = dispatcher.pending();
        if (!paused && pending >= maxPending) {
            paused = true;
            c.pause(c.assignment());
            log.warn(
                    "{} deliveries are waiting; reading {} pauses until they drain", pending, Topic.STATUS.topicName());
        } else if (paused && pending < maxPending / 2) {
            paused = false;
            c.resume(c.paused());
            log.info("deliveries drained to {}; reading {} again", pending, Topic.STATUS.topicName());
        }
    }

    private void handle(TopicPartition tp, ConsumerRecord<String, byte[]> record) {
        PartitionState state = partitions.computeIfAbsent(tp, p -> new PartitionState());
        state.next = record.offset() + 1;
        RestoreEvent event = Messages.statusEvent(record.value());
        if (event == null || event.restoreId() == null) {
            return;
        }
        if (event instanceof RestoreAccepted accepted && accepted.request() != null) {
            state.open.putIfAbsent(
                    event.restoreId(),
                    new Open(
                            accepted.request(),
                            accepted.principal(),
                            record.offset(),
                            accepted.occurredAt() == null ? Instant.now() : accepted.occurredAt(),
                            null,
                            null));
        } else if (event instanceof ExportCompleted file) {
            state.open.computeIfPresent(event.restoreId(), (id, open) -> open.withFile(file));
        }
        if (!event.terminal()) {
            return;
        }
        Open open = state.open.get(event.restoreId());
        if (open == null || open.delivering() != null) {
            return; // rejected before acceptance, accepted before this notifier's history, or under way already
        }
        try {
            var batch = notices.of(
                    open.request(),
                    open.principal(),
                    targets(event.restoreId(), open.request()),
                    open.file(),
                    link(event.restoreId(), open.request()),
                    event);
            if (batch.isEmpty()) {
                state.open.remove(event.restoreId());
                return;
            }
            state.open.put(event.restoreId(), open.delivering(dispatcher.submit(batch)));
        } catch (RuntimeException e) {
            // one restore's notices that cannot even be prepared are lost, never the consumer
            log.error("restore {}: its notices could not be prepared and are not sent", event.restoreId(), e);
            state.open.remove(event.restoreId());
        }
    }

    /** The targets the planner recorded for the restore, waiting (bounded) for them when the request had some. */
    private NotificationsRequested targets(String restoreId, RestoreRequested request) {
        if (request.notification() == null) {
            return null;
        }
        var found = deliveries.targets(restoreId);
        if (found.isEmpty() && deliveries.awaitCaughtUp(logWait)) {
            found = deliveries.targets(restoreId);
        }
        if (found.isEmpty()) {
            log.warn(
                    "restore {} asked for notifications, but {} holds none for it; nobody is told",
                    restoreId,
                    Topic.NOTIFICATIONS.topicName());
        }
        return found.orElse(null);
    }

    private LinkIssued link(String restoreId, RestoreRequested request) {
        if (!(request.destination() instanceof Destination.File f
                && f.delivery() instanceof Destination.Delivery.Email)) {
            return null;
        }
        LinkIssued link = links.of(restoreId, logWait).orElse(null);
        if (link == null) {
            log.warn(
                    "restore {} asks for an email link, but restore-api issued none; its recipients get no mail",
                    restoreId);
        }
        return link;
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
                if (open.delivering() != null && open.delivering().isDone()) {
                    return true;
                }
                boolean stale = open.acceptedAt().isBefore(oldest);
                if (stale) {
                    log.warn(
                            "restore {} is open since {}; it no longer holds the committed offset back and will "
                                    + "not be notified",
                            open.request().restoreId(),
                            open.acceptedAt());
                }
                return stale;
            });
            long offset =
                    state.open.values().stream().mapToLong(Open::offset).min().orElse(state.next);
            offsets.put(tp, new OffsetAndMetadata(offset));
        }
        if (!offsets.isEmpty()) {
            try {
                c.commitSync(offsets);
            } catch (CommitFailedException | RebalanceInProgressException | TimeoutException e) {
                // a rebalance or a slow broker: the next commit covers it, or the next member reads it again
                log.info("offsets not committed now: {}", e.toString());
            }
        }
    }

    @Override
    public void close() {
        thread.stop(Duration.ofSeconds(30));
        links.close();
    }
}
