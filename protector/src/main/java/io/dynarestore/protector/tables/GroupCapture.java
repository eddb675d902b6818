package io.dynarestore.protector.tables;

import io.dynarestore.contracts.protection.ChangeLogFailed;
import io.dynarestore.contracts.protection.ChangeLogFlushed;
import io.dynarestore.contracts.protection.ChangeLogGapped;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.protector.changelog.StreamCapture;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Captures one shard group (not group 0, which the table's {@link TableGuard} captures) of a
 * table's stream while this replica owns the policy partition the group is placed on (ADR 0025):
 * on its own fixed-delay task, one step at a time. A failed step is reported and the capture starts
 * again from the vault's checkpoint 5 s later; {@link #stop()} drops what it holds unflushed, as a
 * crash would, so that the next owner resumes from the checkpoint.
 */
final class GroupCapture {

    private static final Logger log = LoggerFactory.getLogger(GroupCapture.class);

    private final TableServices services;
    private final int index;
    private final int partition;
    private final Clock clock;
    private volatile ProtectionSet policy;
    private final CaptureStepper captures;
    private final SerialTask ticks = new SerialTask(this::step);

    /** @param partition the policy topic's partition whose owner runs this group */
    GroupCapture(TableServices services, ProtectionSet policy, int index, int partition, Clock clock) {
        this.services = services;
        this.policy = policy;
        this.index = index;
        this.partition = partition;
        this.clock = clock;
        this.captures = new CaptureStepper(() -> services.newCapture(this.policy, index, new Events()));
    }

    int partition() {
        return partition;
    }

    StreamCapture capture() {
        return captures.capture();
    }

    void start(ScheduledExecutorService scheduler, Duration pollInterval) {
        ticks.start(scheduler, pollInterval);
    }

    /** The same table's policy, with the same number of groups: a new flush interval applies to the running capture. */
    void update(ProtectionSet next) {
        if (!next.flushInterval().equals(policy.flushInterval())) {
            captures.flushEvery(next.flushInterval());
        }
        policy = next;
    }

    /** Flushes the capture at once until its log reaches {@code target}: a restore wants the tail. */
    void flushThrough(Instant target) {
        captures.flushThrough(target);
    }

    /** Stops, and returns once no step runs any more and the flush being written is in the vault. */
    void stop() {
        ticks.stop(captures::stop);
    }

    private void step() {
        ProtectionSet p = policy;
        try {
            captures.step(clock.instant());
        } catch (RuntimeException e) {
            log.warn(
                    "capturing shard group {} of {} of {} failed: {}",
                    index,
                    p.shardGroups(),
                    p.subject(),
                    e.toString());
            services.events()
                    .publish(ChangeLogFailed.of(
                            p.account(),
                            p.region(),
                            p.table(),
                            ChangeLogMethod.STREAMS,
                            "shard group " + index + " of " + p.shardGroups() + ": " + e.getMessage()));
            captures.failed(clock.instant().plusSeconds(5));
        }
    }

    private final class Events implements StreamCapture.Listener {
        @Override
        public void flushed(ExportMetadata export, long records, Duration lag) {
            ProtectionSet p = policy;
            services.metrics().flushed(records, lag);
            services.events()
                    .publish(ChangeLogFlushed.of(
                            p.account(),
                            p.region(),
                            p.table(),
                            export.exportId(),
                            export.from(),
                            export.to(),
                            records,
                            Math.max(0, lag.toMillis())));
        }

        @Override
        public void gapped(Instant from, Instant to, String reason) {
            ProtectionSet p = policy;
            log.warn(
                    "shard group {} of {} of {} has a gap from {} to {}: {}",
                    index,
                    p.shardGroups(),
                    p.subject(),
                    from,
                    to,
                    reason);
            // the table's owner sees where this group's chain began again and takes a backup from there
            services.events()
                    .publish(ChangeLogGapped.of(
                            p.account(),
                            p.region(),
                            p.table(),
                            from,
                            to,
                            "shard group " + index + " of " + p.shardGroups() + ": " + reason));
        }
    }
}
