package io.dynarestore.protector.retention;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.TopicLog;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The restores in progress, as every replica reads them from {@code restore.status} (no consumer
 * group: each folds the whole topic). Rule: what they hold is answered only once the fold has read
 * everything written to the topic before the question, so that a restore accepted a moment ago is
 * never missed; otherwise there is no answer and retention waits. Each restore accepted is also
 * handed to {@code accepted}, on the fold's thread, so that the capture of its source can flush the
 * log's tail for it; and every event to {@code every} (the restore drills' ends).
 */
public final class RestoresInProgress implements AutoCloseable {

    private final TopicLog log;
    private final RestoreHolds holds;

    public RestoresInProgress(
            Map<String, Object> consumerConfig,
            ConsumerHealth health,
            RestoreHolds holds,
            Consumer<RestoreAccepted> accepted,
            Consumer<RestoreEvent> every) {
        this.holds = holds;
        this.log = new TopicLog(consumerConfig, "protector-restores", Topic.STATUS.topicName(), health, record -> {
            RestoreEvent event = Messages.statusEvent(record.value());
            if (event != null && event.restoreId() != null) {
                holds.fold(event);
                if (event instanceof RestoreAccepted a) {
                    accepted.accept(a);
                }
                every.accept(event);
            }
        });
    }

    public void start() {
        log.start();
    }

    /** The backups of the table that restores in progress hold, or empty when the fold is not caught up within {@code wait}. */
    public Optional<RestoreHolds.Held> held(String account, String region, String table, Instant now, Duration wait) {
        return log.awaitCaughtUp(wait) ? Optional.of(holds.of(account, region, table, now)) : Optional.empty();
    }

    /** How many restores the fold knows in progress. */
    public int count() {
        return holds.size();
    }

    @Override
    public void close() {
        log.close();
    }
}
