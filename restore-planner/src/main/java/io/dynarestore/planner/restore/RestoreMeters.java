package io.dynarestore.planner.restore;

import io.dynarestore.contracts.status.RestoreEvent;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The planner's metrics of restores: how many of its partitions' restores run (a gauge the loop
 * thread sets and the scrape reads), and the restores it ended by outcome with their durations.
 */
final class RestoreMeters {

    private final MeterRegistry meters;
    private final AtomicInteger running = new AtomicInteger();

    RestoreMeters(MeterRegistry meters) {
        this.meters = meters;
        Gauge.builder("dynarestore.planner.running", running, AtomicInteger::get)
                .description("restores of this planner's partitions that are running")
                .register(meters);
    }

    void running(int restores) {
        running.set(restores);
    }

    /** Counts a restore this planner ended, and how long it took from its first event. */
    void ended(TrackedRestore restore, RestoreEvent end) {
        String outcome = String.valueOf(restore.view.state());
        meters.counter("dynarestore.planner.restores", "outcome", outcome).increment();
        var strategy = restore.view.plan() == null
                ? "NONE"
                : restore.view.plan().strategy().name();
        if (restore.view.createdAt() != null && end.occurredAt() != null) {
            Timer.builder("dynarestore.planner.restore.duration")
                    .description("time from a restore's acceptance to its end")
                    .tag("outcome", outcome)
                    .tag("strategy", strategy)
                    .register(meters)
                    .record(Duration.between(restore.view.createdAt(), end.occurredAt()));
        }
    }
}
