package io.dynarestore.core.retry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with full jitter (AWS's recommendation for contending clients): before
 * attempt {@code n} (from 1) wait a uniformly random time in {@code [0, min(max, base * 2^n)]}.
 * Bounded by {@code maxAttempts}.
 */
public record Backoff(int maxAttempts, Duration base, Duration max) {

    public Backoff {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
    }

    public long delayMillis(int attempt) {
        long cap = max.toMillis();
        long exp = base.toMillis() << Math.min(attempt, 20);
        long bound = Math.max(1, Math.min(cap, exp));
        return ThreadLocalRandom.current().nextLong(bound + 1);
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
