package io.dynarestore.core.retry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one backoff of every retry loop: exponential with full jitter (AWS's recommendation for
 * contending clients): before attempt {@code n} (from 1) wait a uniformly random time in
 * {@code [0, min(max, base * 2^n)]}. Bounded by {@code maxAttempts}; a loop that must not give up
 * (a consumer that may not skip a record) uses {@link #untilStopped}.
 */
public record Backoff(int maxAttempts, Duration base, Duration max) {

    public Backoff {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
    }

    /** A backoff for a loop that retries until its service stops: the delay stays bounded by {@code max}. */
    public static Backoff untilStopped(Duration base, Duration max) {
        return new Backoff(Integer.MAX_VALUE, base, max);
    }

    /** Whether {@code attempt} (from 1) may be followed by another. */
    public boolean allowsAfter(int attempt) {
        return attempt < maxAttempts;
    }

    public long delayMillis(int attempt) {
        long cap = max.toMillis();
        long exp = base.toMillis() << Math.min(attempt, 20);
        long bound = Math.max(1, Math.min(cap, exp));
        return ThreadLocalRandom.current().nextLong(bound + 1);
    }

    /** The wait before the attempt after {@code attempt}. */
    public Duration delay(int attempt) {
        return Duration.ofMillis(delayMillis(attempt));
    }

    /** Sleeps before {@code attempt}; false when interrupted (the interrupt flag stays set). */
    public boolean pause(int attempt) {
        try {
            Thread.sleep(delayMillis(attempt));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
