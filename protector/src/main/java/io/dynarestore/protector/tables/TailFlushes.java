package io.dynarestore.protector.tables;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.RestoreAccepted;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Closes the change log's tail for restores (ADR 0033). Rule: a point-in-time restore of a table
 * captured here, accepted less than {@link #MAX_AGE} ago, makes every capture of the table (its
 * own, and the shard groups this replica runs) flush until its log reaches the moment of
 * acceptance, so that the planner finds the writes made before the request in the vault. Older
 * acceptances (the fold replaying {@code restore.status}) are ignored.
 */
final class TailFlushes {

    /** How old an accepted restore may be for its source's captures to flush the tail for it. */
    static final Duration MAX_AGE = Duration.ofMinutes(2);

    private final Function<String, TableGuard> guards;
    private final Consumer<BiConsumer<String, GroupCapture>> groups;
    private final Clock clock;

    /**
     * @param guards the guard of a table by its key ({@code account/region/table}), or null
     * @param groups visits the shard groups run here, keyed {@code account/region/table#g of n}
     */
    TailFlushes(Function<String, TableGuard> guards, Consumer<BiConsumer<String, GroupCapture>> groups, Clock clock) {
        this.guards = guards;
        this.groups = groups;
        this.clock = clock;
    }

    /** A restore was accepted (called on the fold's thread). */
    void accepted(RestoreAccepted accepted) {
        var source = accepted.request() == null ? null : accepted.request().source();
        Instant at = accepted.occurredAt();
        if (source == null
                || source.pointInTime() == null
                || at == null
                || at.isBefore(clock.instant().minus(MAX_AGE))) {
            return;
        }
        String subject = Topic.tableKey(source.account(), source.region(), source.table());
        TableGuard guard = guards.apply(subject);
        if (guard != null) {
            guard.flushThrough(at);
        }
        groups.accept((key, group) -> {
            if (key.startsWith(subject + "#")) {
                group.flushThrough(at);
            }
        });
    }
}
