package io.dynarestore.core.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BackoffTest {

    @ParameterizedTest(name = "attempt {0}")
    @ValueSource(ints = {1, 2, 3, 5, 8, 20, 40, Integer.MAX_VALUE - 1})
    void waitsAtMostTheDoubledBaseCappedByTheMaximum(int attempt) {
        // Given a backoff from 100 ms, at most 5 s
        var backoff = new Backoff(10, Duration.ofMillis(100), Duration.ofSeconds(5));
        long bound = Math.min(5_000, 100L << Math.min(attempt, 20));

        // When it is asked many times
        long longest = 0;
        for (int i = 0; i < 2_000; i++) {
            long wait = backoff.delay(attempt).toMillis();
            assertThat(wait).isBetween(0L, bound);
            longest = Math.max(longest, wait);
        }

        // Then every wait is within [0, min(max, base * 2^attempt)], and the jitter reaches the upper half
        assertThat(longest).isGreaterThan(bound / 2);
    }

    @Test
    void allowsTheConfiguredNumberOfAttemptsAndAnUnstoppedLoopAlways() {
        var three = new Backoff(3, Duration.ofMillis(1), Duration.ofMillis(5));
        assertThat(three.allowsAfter(2)).isTrue();
        assertThat(three.allowsAfter(3)).isFalse();
        assertThat(Backoff.untilStopped(Duration.ofMillis(1), Duration.ofMillis(5))
                        .allowsAfter(1_000_000))
                .isTrue();
        assertThatThrownBy(() -> new Backoff(0, Duration.ZERO, Duration.ZERO))
                .hasMessageContaining("maxAttempts must be at least 1");
    }
}
