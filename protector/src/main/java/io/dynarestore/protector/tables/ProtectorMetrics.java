package io.dynarestore.protector.tables;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The protector's metrics: {@code dynarestore.protector.backup.duration},
 * {@code dynarestore.protector.records.captured}, {@code dynarestore.protector.flush.lag}
 * (from the end of a flushed range to its export being listed), and the gauges
 * {@code dynarestore.protector.tables.owned}, {@code dynarestore.protector.shards.read} and
 * {@code dynarestore.protector.changelog.behind.seconds} (the oldest owned table's distance from now).
 */
final class ProtectorMetrics {

    private final Timer backups;
    private final Counter captured;
    private final Timer flushLag;

    ProtectorMetrics(
            MeterRegistry registry, Supplier<Number> tables, Supplier<Number> shards, Supplier<Number> behindSeconds) {
        this.backups = Timer.builder("dynarestore.protector.backup.duration").register(registry);
        this.captured =
                Counter.builder("dynarestore.protector.records.captured").register(registry);
        this.flushLag = Timer.builder("dynarestore.protector.flush.lag").register(registry);
        registry.gauge(
                "dynarestore.protector.tables.owned", tables, s -> s.get().doubleValue());
        registry.gauge("dynarestore.protector.shards.read", shards, s -> s.get().doubleValue());
        registry.gauge(
                "dynarestore.protector.changelog.behind.seconds",
                behindSeconds,
                s -> s.get().doubleValue());
    }

    void backupTook(Duration d) {
        backups.record(d);
    }

    void flushed(long records, Duration lag) {
        captured.increment(records);
        flushLag.record(lag.isNegative() ? Duration.ZERO : lag);
    }
}
