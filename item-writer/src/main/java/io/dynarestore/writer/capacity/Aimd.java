package io.dynarestore.writer.capacity;

/**
 * The share of its budget a table is written at: halved when DynamoDB throttles (at most once a
 * second, since the batches in flight all come back throttled together), and raised again by a
 * fixed step for every second without throttling, up to the whole budget.
 */
final class Aimd {

    static final long SECOND = 1_000_000_000L;

    private final double floor;
    private final double step;
    private double factor = 1.0;
    private long lastThrottle = Long.MIN_VALUE;
    private long lastRaise = Long.MIN_VALUE;

    /**
     * @param floor the lowest factor (never stop writing entirely)
     * @param step  what a quiet second adds back
     */
    Aimd(double floor, double step) {
        this.floor = floor;
        this.step = step;
    }

    synchronized void throttled(long nowNanos) {
        if (lastThrottle == Long.MIN_VALUE || nowNanos - lastThrottle >= SECOND) {
            factor = Math.max(floor, factor / 2);
            lastThrottle = nowNanos;
            lastRaise = nowNanos;
        }
    }

    synchronized double factor(long nowNanos) {
        if (lastRaise != Long.MIN_VALUE && factor < 1.0) {
            long seconds = (nowNanos - lastRaise) / SECOND;
            if (seconds > 0) {
                factor = Math.min(1.0, factor + step * seconds);
                lastRaise += seconds * SECOND;
            }
        }
        return factor;
    }
}
