package io.dynarestore.core.retry;

/**
 * Spaces write reservations at a rate (a GCRA-style virtual schedule): a reservation of
 * {@code units} starts no earlier than the previous one plus its units divided by the rate, and
 * idle time is not saved up. So the units whose reservation starts in any one-second window are
 * at most the rate plus one reservation, unlike a fixed-window limiter (resilience4j's
 * RateLimiter refreshes whole windows, so a burst at the end of one window and another at the
 * start of the next can pass twice the rate within one second). Writers pace each table's lane
 * with it, and a rollback paces its writes.
 */
public final class Pacer {

    private long next = Long.MIN_VALUE;

    /**
     * Reserves {@code units} at {@code unitsPerSecond}; returns how many nanoseconds from
     * {@code nowNanos} the caller must wait before sending them.
     */
    public synchronized long reserve(long units, double unitsPerSecond, long nowNanos) {
        long start = next == Long.MIN_VALUE || next - nowNanos < 0 ? nowNanos : next;
        next = start + (long) (units / Math.max(unitsPerSecond, 0.001) * 1e9);
        return start - nowNanos;
    }
}
