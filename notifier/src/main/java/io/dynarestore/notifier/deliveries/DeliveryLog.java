package io.dynarestore.notifier.deliveries;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.notifications.NotificationEvent;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicLog;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The fold of {@code restore.notifications}: the deliveries that are finished (delivered or
 * abandoned). The one record the notifier consults before sending, so that an event read again
 * (after a restart or a rebalance) sends nothing twice.
 */
public final class DeliveryLog implements AutoCloseable {

    private final Set<String> finished = ConcurrentHashMap.newKeySet();
    private final TopicLog log;
    private final EventPublisher publisher;

    public DeliveryLog(Map<String, Object> consumerConfig, EventPublisher publisher) {
        this.publisher = publisher;
        this.log = new TopicLog(consumerConfig, "notifier-deliveries", Topic.NOTIFICATIONS.topicName(), this::apply);
    }

    public void start() {
        log.start();
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        try {
            finished.add(Json.mapper().readValue(record.value(), NotificationEvent.class).deliveryId());
        } catch (RuntimeException e) {
            // not a notification event: nothing to fold
        }
    }

    /** Waits until every delivery recorded before now is folded; false on timeout. */
    public boolean awaitCaughtUp(Duration timeout) {
        return log.awaitCaughtUp(timeout);
    }

    public boolean finished(String deliveryId) {
        return finished.contains(deliveryId);
    }

    void record(NotificationEvent event) {
        EventPublisher.await(publisher.send(Topic.NOTIFICATIONS, event.restoreId(), event));
        finished.add(event.deliveryId());
    }

    @Override
    public void close() {
        log.close();
    }
}
