package io.dynarestore.notifier.alerts;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.DrillFailed;
import io.dynarestore.contracts.protection.ProtectionEvent;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.notifier.deliveries.Delivery;
import io.dynarestore.notifier.deliveries.DeliveryLog;
import io.dynarestore.notifier.deliveries.Dispatcher;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The notifier's member of its alert group on {@code restore.protection.events}: each
 * {@link DrillFailed} becomes alerts to the configured targets, sent by the {@link Dispatcher}.
 *
 * <p>Rules: a poll's offsets are committed once its alerts are all delivered or abandoned, so a
 * restarted notifier sends again only what was unfinished, and the {@link DeliveryLog} skips what
 * was finished. Other protection events, and messages that are not protection events, are passed
 * over (the protector's own dead-letter handling covers those). A failure older than
 * {@code maxAge} when read raises no alert: a notifier that joins late does not page for old
 * drills. The stream is a table's few events a day, so waiting here for a poll's deliveries holds up
 * nothing else.
 */
public final class AlertFollower implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AlertFollower.class);

    private final ConsumerThread thread;
    private final DeliveryLog deliveries;
    private final Dispatcher dispatcher;
    private final DrillAlerts alerts;
    private final Duration logWait;
    private final Duration maxAge;
    private final Clock clock;
    private final boolean anyone;

    public AlertFollower(
            Map<String, Object> baseConfig,
            String group,
            AlertTargets targets,
            String publicUrl,
            DeliveryLog deliveries,
            Dispatcher dispatcher,
            Duration logWait,
            Duration maxAge,
            Clock clock,
            ConsumerHealth health) {
        var config = new HashMap<>(baseConfig);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // a poll's alerts are delivered before the next poll: tries and their backoff fit in this
        config.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int)
                Duration.ofMinutes(15).toMillis());
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
        this.deliveries = deliveries;
        this.dispatcher = dispatcher;
        this.alerts = new DrillAlerts(targets, publicUrl);
        this.logWait = logWait;
        this.maxAge = maxAge;
        this.clock = clock;
        this.anyone = !targets.isEmpty();
        this.thread = new ConsumerThread("notifier-alerts", config, health, this::follow);
    }

    /** Starts following, unless there is nobody to alert: then no consumer joins the group. */
    public void start() {
        if (!anyone) {
            log.info("no alert targets (notifier.alerts.webhooks, notifier.alerts.emails): a failed drill alerts "
                    + "nobody, though its event and metric are there");
            return;
        }
        thread.start();
    }

    private void follow(KafkaConsumer<String, byte[]> c) {
        c.subscribe(List.of(Topic.PROTECTION_EVENTS.topicName()));
        while (thread.running()) {
            var records = c.poll(Duration.ofMillis(500));
            if (records.isEmpty()) {
                continue;
            }
            // one delivery per id: the same failure twice in one poll is sent once (the log skips it across polls)
            var batch = new LinkedHashMap<String, Delivery>();
            for (ConsumerRecord<String, byte[]> record : records) {
                alertsOf(Messages.protectionEvent(record.value())).forEach(d -> batch.putIfAbsent(d.id(), d));
            }
            if (!batch.isEmpty() && !deliver(List.copyOf(batch.values()))) {
                return; // stopping: what is unfinished is read again by the next member
            }
            commit(c);
        }
    }

    private List<Delivery> alertsOf(ProtectionEvent event) {
        if (!(event instanceof DrillFailed failed) || failed.restore() == null) {
            return List.of();
        }
        Instant at = failed.occurredAt() == null ? clock.instant() : failed.occurredAt();
        if (at.isBefore(clock.instant().minus(maxAge))) {
            log.info(
                    "drill {} of {} failed at {}, longer ago than {}: no alert",
                    failed.drillId(),
                    failed.table(),
                    at,
                    maxAge);
            return List.of();
        }
        try {
            return alerts.of(failed);
        } catch (RuntimeException e) {
            // one drill's alerts that cannot even be prepared are lost, never the consumer
            log.error(
                    "drill {} of {}: its alerts could not be prepared and are not sent",
                    failed.drillId(),
                    failed.table(),
                    e);
            return List.of();
        }
    }

    /** Sends the batch and waits until each is delivered or abandoned; false when stopped meanwhile. */
    private boolean deliver(List<Delivery> batch) {
        // what is finished is known once the delivery log is read up to now; if it is not, a repeat is possible
        if (!deliveries.awaitCaughtUp(logWait)) {
            log.warn(
                    "{} is not read up to now; an alert sent before may be sent again",
                    Topic.NOTIFICATIONS.topicName());
        }
        var done = dispatcher.submit(batch);
        while (thread.running()) {
            try {
                done.get(500, TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                // still delivering
            } catch (ExecutionException e) {
                return true; // the dispatcher finishes deliveries either way; nothing of this kind is expected
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static void commit(KafkaConsumer<String, byte[]> c) {
        try {
            c.commitSync();
        } catch (KafkaException e) {
            // a rebalance or a slow broker: the alerts are read again, and the delivery log skips the finished ones
            log.info("alert offsets not committed now: {}", e.toString());
        }
    }

    @Override
    public void close() {
        thread.stop(Duration.ofSeconds(30));
    }
}
