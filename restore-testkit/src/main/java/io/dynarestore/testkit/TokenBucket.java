package io.dynarestore.testkit;

/** Tokens refilled continuously at {@code rate} per second up to {@code rate * burst}. */
final class TokenBucket {
    final long rate;
    final double capacity;
    double tokens;
    long last;

    TokenBucket(long rate, int burstSeconds) {
        this.rate = rate;
        this.capacity = (double) rate * burstSeconds;
        this.tokens = capacity;
        this.last = System.currentTimeMillis();
    }

    synchronized boolean take(long cost, long now) {
        tokens = Math.min(capacity, tokens + (now - last) * rate / 1000.0);
        last = Math.max(last, now);
        // an item larger than the whole bucket passes on a full bucket, leaving a debt
        if (tokens >= Math.min(cost, capacity)) {
            tokens -= cost;
            return true;
        }
        return false;
    }
}
