package io.dynarestore.writer.segments;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A circuit breaker per destination table and one for the vault's S3, fed with the outcome of
 * every call: a call that could not reach the service or got a 5xx is a failure; throttling is
 * not (the service is up, just busy). While a breaker is open, writes to that place wait instead
 * of failing: the segment holds its place, its consumer stays paused, and no retry attempt is
 * spent. The wait is bounded ({@code maxOutage}); after it the segment fails over to the
 * ordinary transient-failure handling.
 */
final class Outages {

    private final CircuitBreakerRegistry registry;
    private final Duration maxOutage;

    Outages(Duration openWait, Duration maxOutage) {
        this.maxOutage = maxOutage;
        this.registry = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(10)
                .minimumNumberOfCalls(4)
                .failureRateThreshold(50)
                .waitDurationInOpenState(openWait)
                .permittedNumberOfCallsInHalfOpenState(1)
                // a probe whose outcome never came back (its segment was aborted) must not wedge the breaker
                .maxWaitDurationInHalfOpenState(openWait.multipliedBy(4))
                .build());
    }

    CircuitBreaker table(String account, String region, String table) {
        return registry.circuitBreaker("dynamodb:" + account + "/" + region + "/" + table);
    }

    CircuitBreaker s3() {
        return registry.circuitBreaker("s3");
    }

    /**
     * Waits until {@code breaker} lets a call through; the caller must then report the call's
     * outcome ({@link #succeeded}, {@link #failed}). Returns false when aborted while waiting.
     *
     * @throws TransientWriteException when the place stayed unavailable longer than {@code maxOutage}
     */
    boolean permit(CircuitBreaker breaker, BooleanSupplier aborted) {
        long deadline = System.nanoTime() + maxOutage.toNanos();
        while (!breaker.tryAcquirePermission()) {
            if (aborted.getAsBoolean()) {
                return false;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TransientWriteException(
                        breaker.getName() + " has been unavailable for more than " + maxOutage.toSeconds() + " s");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Whether calls to {@code breaker}'s place currently count as retry attempts (only when it is closed). */
    static boolean counting(CircuitBreaker breaker) {
        return breaker.getState() == CircuitBreaker.State.CLOSED;
    }

    static void succeeded(CircuitBreaker breaker, long startNanos) {
        breaker.onSuccess(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    static void failed(CircuitBreaker breaker, long startNanos, Throwable e) {
        breaker.onError(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS, e);
    }

    /** Whether either place of a segment is down now. */
    boolean down(String account, String region, String table) {
        return table(account, region, table).getState() != CircuitBreaker.State.CLOSED
                || s3().getState() != CircuitBreaker.State.CLOSED;
    }
}
