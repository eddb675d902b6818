package io.dynarestore.notifier.deliveries;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.notifications.NotificationAbandoned;
import io.dynarestore.contracts.notifications.NotificationDelivered;
import io.dynarestore.contracts.notifications.NotificationEvent;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.retry.Backoff;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends deliveries on its own bounded pool, each at most once as far as the delivery log knows:
 * a delivery already finished is skipped; otherwise it is tried up to {@code maxAttempts} times,
 * the waits between tries scheduled rather than slept (so a slow receiver holds a thread only for
 * one try's timeout), then recorded as delivered, or as abandoned on
 * {@code restore.notifications.DLT}.
 *
 * <p>Rules: whatever one try meets (a refusal, a timeout, an exception of any kind) is that
 * delivery's failure, never the caller's; {@link #submit} returns at once, and its future
 * completes when every delivery of the batch is finished. A dead letter carries the delivery's
 * id and error but not its target, and a link mail's body is withheld (it holds the link's
 * token): the target is on {@code restore.notifications}, which only the notifier reads.
 */
public final class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    private static final int RECORD_ATTEMPTS = 5;

    private final DeliveryLog deliveries;
    private final Map<NotificationEvent.Channel, Channel> channels;
    private final Backoff retries;
    private final EventPublisher publisher;
    private final ScheduledExecutorService pool;
    private final MeterRegistry meters;
    private final AtomicInteger pending = new AtomicInteger();

    public Dispatcher(
            DeliveryLog deliveries,
            Map<NotificationEvent.Channel, Channel> channels,
            Backoff retries,
            EventPublisher publisher,
            ScheduledExecutorService pool,
            MeterRegistry meters) {
        this.deliveries = deliveries;
        this.channels = channels;
        this.retries = retries;
        this.publisher = publisher;
        this.pool = pool;
        this.meters = meters;
        meters.gauge("dynarestore.notifier.pending", pending);
    }

    /** Deliveries submitted and not finished yet. */
    public int pending() {
        return pending.get();
    }

    /** Starts every delivery not finished yet; the future completes once each is delivered or abandoned. */
    public CompletableFuture<Void> submit(List<Delivery> batch) {
        var all = new ArrayList<CompletableFuture<Void>>();
        for (Delivery d : batch) {
            if (deliveries.finished(d.id())) {
                meters.counter(
                                "dynarestore.notifier.skipped",
                                "channel",
                                d.channel().name())
                        .increment();
                continue;
            }
            var done = new CompletableFuture<Void>();
            pending.incrementAndGet();
            done.whenComplete((v, e) -> pending.decrementAndGet());
            all.add(done);
            schedule(() -> attempt(d, 1, done), Duration.ZERO);
        }
        return CompletableFuture.allOf(all.toArray(new CompletableFuture[0]));
    }

    private void schedule(Runnable task, Duration after) {
        try {
            pool.schedule(task, after.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // stopping: the delivery stays unfinished, and the next notifier makes it
            log.debug("delivery not scheduled: the notifier is stopping");
        }
    }

    private void attempt(Delivery d, int attempt, CompletableFuture<Void> done) {
        String error;
        boolean retryable;
        try {
            channels.get(d.channel()).send(d);
            record(NotificationDelivered.of(d.restoreId(), d.id(), d.channel(), d.target(), attempt), d, done);
            meters.counter(
                            "dynarestore.notifier.delivered",
                            "channel",
                            d.channel().name())
                    .increment();
            return;
        } catch (DeliveryFailed e) {
            error = e.getMessage();
            retryable = e.retryable();
        } catch (RuntimeException | Error e) {
            error = "the " + d.channel().name().toLowerCase(Locale.ROOT) + " channel failed: " + e;
            retryable = true;
            log.warn("delivery {} to {}: unexpected failure", d.id(), d.shown(), e);
        }
        log.info("delivery {} to {} try {} of {} failed: {}", d.id(), d.shown(), attempt, retries.maxAttempts(), error);
        if (retryable && retries.allowsAfter(attempt)) {
            schedule(() -> attempt(d, attempt + 1, done), retries.delay(attempt));
            return;
        }
        abandon(d, attempt, error, done);
    }

    private void abandon(Delivery d, int attempts, String error, CompletableFuture<Void> done) {
        byte[] body = d.secret()
                ? ("The body of delivery " + d.id() + " is withheld: it holds a link token. Send the "
                                + "link again from restore.links, or ask restore-api for a new one.")
                        .getBytes(StandardCharsets.UTF_8)
                : d.body();
        var dead = new ProducerRecord<String, byte[]>(Topic.NOTIFICATIONS.dlt(), d.restoreId(), body);
        dead.headers().add(DeadLetters.RESTORE_ID, bytes(d.restoreId()));
        dead.headers().add("dynarestore_delivery-id", bytes(d.id()));
        dead.headers().add("dynarestore_channel", bytes(d.channel().name()));
        dead.headers().add(DeadLetters.EXCEPTION_MESSAGE, bytes(error == null ? "" : error));
        if (d.subject() != null) {
            dead.headers().add("dynarestore_subject", bytes(d.subject()));
        }
        try {
            publisher.sendRecord(dead);
        } catch (RuntimeException e) {
            log.warn("delivery {}: its dead letter could not be written: {}", d.id(), e.toString());
        }
        record(NotificationAbandoned.of(d.restoreId(), d.id(), d.channel(), d.target(), attempts, error), d, done);
        meters.counter("dynarestore.notifier.abandoned", "channel", d.channel().name())
                .increment();
        log.warn("delivery {} to {} abandoned after {} tries: {}", d.id(), d.shown(), attempts, error);
    }

    /** Records the end of a delivery, retrying while Kafka is away; then the delivery is finished either way. */
    private void record(NotificationEvent event, Delivery d, CompletableFuture<Void> done) {
        record(event, d, done, 1);
    }

    private void record(NotificationEvent event, Delivery d, CompletableFuture<Void> done, int attempt) {
        try {
            deliveries.record(event);
            done.complete(null);
        } catch (RuntimeException e) {
            if (attempt >= RECORD_ATTEMPTS) {
                log.error(
                        "delivery {} finished but could not be recorded on {} ({}); a restarted notifier may send "
                                + "it again",
                        d.id(),
                        Topic.NOTIFICATIONS.topicName(),
                        e.toString());
                done.complete(null);
                return;
            }
            schedule(() -> record(event, d, done, attempt + 1), retries.delay(attempt));
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
