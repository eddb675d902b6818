package io.dynarestore.planner.restore;

import io.dynarestore.contracts.status.RestoreProgressed;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.core.kafka.EventPublisher;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes RestoreProgressed for each running restore whose items moved since its last one, at
 * most every {@code progressInterval}: the restore as a whole, with rates and an ETA, for
 * dashboards that read only the status topic. Runs on the loop thread, the only one that reads
 * the views; a report Kafka does not take is tried again next round.
 */
final class ProgressReporter {

    private static final Logger log = LoggerFactory.getLogger(ProgressReporter.class);

    private final OwnedRestores owned;
    private final EventPublisher publisher;
    private final Duration progressInterval;
    private final RestoreMeters meters;
    private long nextProgress;

    ProgressReporter(OwnedRestores owned, EventPublisher publisher, Duration progressInterval, RestoreMeters meters) {
        this.owned = owned;
        this.publisher = publisher;
        this.progressInterval = progressInterval;
        this.meters = meters;
    }

    /**
     * Publishes RestoreProgressed for each running restore whose items moved since the last one:
     * the restore as a whole, for dashboards that read only the status topic.
     */
    void report() {
        long now = System.nanoTime();
        if (now - nextProgress < 0) {
            return;
        }
        nextProgress = now + progressInterval.toNanos();
        int runningNow = 0;
        for (TrackedRestore r : owned.all()) {
            var view = r.view;
            if (view.state() == RestoreState.RUNNING) {
                runningNow++;
            }
            if (view.state() != RestoreState.RUNNING || view.plan() == null || view.cancellation() != null) {
                continue;
            }
            long items = view.itemsWritten();
            if (items == r.progressItems) {
                continue;
            }
            long wcu = view.wcuConsumed();
            double seconds = r.progressAt == 0 ? progressInterval.toMillis() / 1000.0 : (now - r.progressAt) / 1e9;
            var event = RestoreProgressed.of(
                    r.restoreId,
                    items,
                    view.bytesWritten(),
                    view.plan().estimatedItems(),
                    view.completedSegments().size(),
                    view.plan().segments(),
                    wcu,
                    Math.max(0, (items - r.progressItems) / seconds),
                    Math.max(0, (wcu - r.progressWcu) / seconds),
                    view.throttles());
            try {
                publisher.status(event);
            } catch (RuntimeException e) {
                log.debug("progress of {} not published: {}", r.restoreId, e.toString());
                return; // Kafka is away; the next round tries again
            }
            r.applyLocal(event);
            r.progressItems = items;
            r.progressWcu = wcu;
            r.progressAt = now;
        }
        meters.running(runningNow);
    }
}
