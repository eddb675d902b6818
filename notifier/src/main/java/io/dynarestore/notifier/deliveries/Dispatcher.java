package io.dynarestore.notifier.deliveries;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.notifications.NotificationAbandoned;
import io.dynarestore.contracts.notifications.NotificationDelivered;
import io.dynarestore.contracts.notifications.NotificationEvent;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends deliveries, each at most once as far as the delivery log knows: a delivery already
 * finished is skipped; otherwise it is tried up to {@code maxAttempts} times with exponential
 * backoff, then recorded as delivered, or as abandoned with its body on
 * {@code restore.notifications.DLT}. The deliveries of one event go out in parallel on a bounded
 * pool, and {@link #dispatch} returns when all are finished.
 */
public final class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    /** Tries and the waits between them: {@code initialBackoff}, doubled each time, at most {@code maxBackoff}. */
    public record Retries(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
        Duration backoff(int attempt) {
            long millis = initialBackoff.toMillis() << Math.min(20, attempt - 1);
            return Duration.ofMillis(Math.min(millis, maxBackoff.toMillis()));
        }
    }

    private final DeliveryLog deliveries;
    private final Map<NotificationEvent.Channel, Channel> channels;
    private final Retries retries;
    private final EventPublisher publisher;
    private final ExecutorService pool;
    private final MeterRegistry meters;

    public Dispatcher(DeliveryLog deliveries, Map<NotificationEvent.Channel, Channel> channels, Retries retries,
                      EventPublisher publisher, ExecutorService pool, MeterRegistry meters) {
        this.deliveries = deliveries;
        this.channels = channels;
        this.retries = retries;
        this.publisher = publisher;
        this.pool = pool;
        this.meters = meters;
    }

    /** Sends every delivery not finished yet; returns once each is delivered or abandoned. */
    public void dispatch(List<Delivery> batch) throws InterruptedException {
        var futures = new ArrayList<Future<?>>();
        for (Delivery d : batch) {
            if (deliveries.finished(d.id())) {
                meters.counter("dynarestore.notifier.skipped", "channel", d.channel().name()).increment();
                continue;
            }
            futures.add(pool.submit(() -> deliver(d)));
        }
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("a delivery could not be recorded", e.getCause());
            }
        }
    }

    private void deliver(Delivery d) {
        String error = null;
        int attempt = 0;
        while (attempt < retries.maxAttempts()) {
            attempt++;
            try {
                channels.get(d.channel()).send(d);
                deliveries.record(NotificationDelivered.of(d.restoreId(), d.id(), d.channel(), d.target(), attempt));
                meters.counter("dynarestore.notifier.delivered", "channel", d.channel().name()).increment();
                return;
            } catch (DeliveryFailed e) {
                error = e.getMessage();
                log.info("delivery {} try {} of {} failed: {}", d.id(), attempt, retries.maxAttempts(), error);
                if (!e.retryable()) {
                    break;
                }
                if (attempt < retries.maxAttempts()) {
                    try {
                        Thread.sleep(retries.backoff(attempt).toMillis());
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        return; // stopping: the delivery stays unfinished and is tried again after a restart
                    }
                }
            }
        }
        abandon(d, attempt, error);
    }

    private void abandon(Delivery d, int attempts, String error) {
        var record = new ProducerRecord<String, byte[]>(Topic.NOTIFICATIONS.dlt(), d.restoreId(), d.body());
        record.headers().add(DeadLetters.RESTORE_ID, bytes(d.restoreId()));
        record.headers().add("dynarestore_delivery-id", bytes(d.id()));
        record.headers().add("dynarestore_channel", bytes(d.channel().name()));
        record.headers().add("dynarestore_target", bytes(d.target()));
        record.headers().add(DeadLetters.EXCEPTION_MESSAGE, bytes(error == null ? "" : error));
        if (d.subject() != null) {
            record.headers().add("dynarestore_subject", bytes(d.subject()));
        }
        publisher.sendRecord(record);
        deliveries.record(NotificationAbandoned.of(d.restoreId(), d.id(), d.channel(), d.target(), attempts, error));
        meters.counter("dynarestore.notifier.abandoned", "channel", d.channel().name()).increment();
        log.warn("delivery {} abandoned after {} tries: {}", d.id(), attempts, error);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
