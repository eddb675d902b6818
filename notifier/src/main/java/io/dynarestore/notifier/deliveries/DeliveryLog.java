package io.dynarestore.notifier.deliveries;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.notifications.NotificationEvent;
import io.dynarestore.contracts.notifications.NotificationsRequested;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicLog;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The fold of {@code restore.notifications}: whom each restore's end is to be told (the
 * planner's {@link NotificationsRequested}), and the deliveries that are finished (delivered or
 * abandoned). The one record the notifier consults before sending, so that an event read again
 * (after a restart or a rebalance) sends nothing twice.
 *
 * <p>Rule: bounded. What is older than {@code retain} is forgotten: a restore open that long no
 * longer holds the status offset back, so nothing about it is read again.
 */
public final class DeliveryLog implements AutoCloseable {

    private record Subscription(NotificationsRequested targets, Instant at) {}

    private final Map<String, Instant> finished = new ConcurrentHashMap<>();
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final TopicLog log;
    private final EventPublisher publisher;
    private final Duration retain;
    private final AtomicLong folded = new AtomicLong();

    public DeliveryLog(
            Map<String, Object> consumerConfig, EventPublisher publisher, ConsumerHealth health, Duration retain) {
        this.publisher = publisher;
        this.retain = retain;
        this.log = new TopicLog(
                consumerConfig, "notifier-deliveries", Topic.NOTIFICATIONS.topicName(), health, this::apply);
    }

    public void start() {
        log.start();
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        NotificationEvent event;
        try {
            event = Json.mapper().readValue(record.value(), NotificationEvent.class);
        } catch (RuntimeException e) {
            return; // not a notification event: nothing to fold
        }
        fold(event);
    }

    void fold(NotificationEvent event) {
        Instant at = event.occurredAt() == null ? Instant.now() : event.occurredAt();
        if (event instanceof NotificationsRequested r && r.restoreId() != null) {
            subscriptions.putIfAbsent(r.restoreId(), new Subscription(r, at));
        }
        String delivery = NotificationEvent.finishedDelivery(event);
        if (delivery != null) {
            finished.put(delivery, at);
        }
        if (folded.incrementAndGet() % 1_000 == 0) {
            forgetBefore(Instant.now().minus(retain));
        }
    }

    /** Forgets what happened before {@code cutoff}. */
    void forgetBefore(Instant cutoff) {
        finished.values().removeIf(at -> at.isBefore(cutoff));
        subscriptions.values().removeIf(s -> s.at().isBefore(cutoff));
    }

    /** Waits until every record written before now is folded; false on timeout. */
    public boolean awaitCaughtUp(Duration timeout) {
        return log.awaitCaughtUp(timeout);
    }

    public boolean finished(String deliveryId) {
        return finished.containsKey(deliveryId);
    }

    /** Whom restore {@code restoreId}'s end is to be told, as folded so far. */
    public Optional<NotificationsRequested> targets(String restoreId) {
        var s = subscriptions.get(restoreId);
        return s == null ? Optional.empty() : Optional.of(s.targets());
    }

    void record(NotificationEvent event) {
        EventPublisher.await(publisher.send(Topic.NOTIFICATIONS, event.restoreId(), event));
        String delivery = NotificationEvent.finishedDelivery(event);
        if (delivery != null) {
            finished.put(delivery, Instant.now());
        }
    }

    @Override
    public void close() {
        log.close();
    }
}
