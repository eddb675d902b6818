package io.dynarestore.planner.destination;

import io.dynarestore.planner.PlannerProperties;

/**
 * How warm a new on-demand table is made for the restore that writes it: fast enough to write the
 * restore's write units in the configured time, above DynamoDB's default warm throughput of a new
 * on-demand table (4,000 writes a second) and never above the configured most; none where the
 * default suffices, for a provisioned table, or where warming is off.
 */
public final class WarmThroughputs {

    /** The write units per second DynamoDB gives every new on-demand table. */
    public static final long DEFAULT_WRITES = 4_000;

    private WarmThroughputs() {}

    /** The warm write units per second of a new table for {@code writeUnits} of writes, or {@code null} for none. */
    public static Long writes(long writeUnits, boolean onDemand, PlannerProperties.WarmThroughput settings) {
        if (!settings.enabled() || !onDemand || settings.maxWriteUnits() <= DEFAULT_WRITES) {
            return null;
        }
        long seconds = Math.max(1, settings.targetDuration().toSeconds());
        long rate = writeUnits / seconds + (writeUnits % seconds == 0 ? 0 : 1);
        return rate <= DEFAULT_WRITES ? null : Math.min(rate, settings.maxWriteUnits());
    }
}
