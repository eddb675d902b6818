package io.dynarestore.core.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PacerTest {

    static final long SECOND = 1_000_000_000L;

    static Stream<Arguments> workloads() {
        return Stream.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L)
                .flatMap(seed ->
                        Stream.of(Arguments.of(seed, 50.0), Arguments.of(seed, 400.0), Arguments.of(seed, 5_000.0)));
    }

    @ParameterizedTest(name = "seed {0}, {1} WCU/s")
    @MethodSource("workloads")
    void neverLetsAnyOneSecondWindowPassMoreThanTheRatePlusOneBatch(long seed, double rate) {
        // Given callers that ask for batches of random cost at random moments, as fast as they may
        Random r = new Random(seed);
        var pacer = new Pacer();
        long maxBatch = Math.max(1, (long) (rate * 0.1));
        long now = 0;
        var starts = new TreeMap<Long, Long>();
        long total = 0;
        for (int i = 0; i < 3_000; i++) {
            long units = 1 + r.nextInt((int) maxBatch);
            now += r.nextInt(3) == 0 ? r.nextInt((int) (SECOND / 10)) : 0; // sometimes idle, mostly eager
            long wait = pacer.reserve(units, rate, now);
            assertThat(wait).isGreaterThanOrEqualTo(0);
            starts.merge(now + wait, units, Long::sum);
            total += units;
        }

        // When the units are counted in every one-second window (sliding, at every start)
        long worst = 0;
        for (long start : starts.keySet()) {
            long sum = starts.subMap(start, start + SECOND).values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            worst = Math.max(worst, sum);
        }

        // Then no window holds more than the rate plus one batch (at most 110% of the rate)
        assertThat((double) worst).isLessThanOrEqualTo(rate + maxBatch);
        assertThat((double) worst).isLessThanOrEqualTo(rate * 1.1 + 1);
        assertThat(total).isPositive();
    }

    @Test
    void doesNotSaveUpIdleTimeForABurstLater() {
        // Given a pacer that was idle for ten seconds
        var pacer = new Pacer();
        pacer.reserve(10, 100, 0);

        // When many reservations arrive at once
        long now = 10 * SECOND;
        long lastWait = 0;
        for (int i = 0; i < 20; i++) {
            lastWait = pacer.reserve(10, 100, now);
        }

        // Then they are spread at the rate: the 20th waits 1.9 s, the idle time bought nothing
        assertThat(lastWait).isEqualTo(19 * SECOND / 10);
    }
}
