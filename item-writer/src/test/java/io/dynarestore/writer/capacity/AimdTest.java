package io.dynarestore.writer.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AimdTest {

    static final long SECOND = Aimd.SECOND;

    @Test
    void halvesOnThrottlingAtMostOnceASecondAndRecoversAStepPerQuietSecond() {
        var aimd = new Aimd(0.02, 0.05);
        assertThat(aimd.factor(0)).isEqualTo(1.0);

        // When a burst of throttles arrives within one second
        aimd.throttled(SECOND);
        aimd.throttled(SECOND + 100);
        aimd.throttled(SECOND + SECOND / 2);

        // Then the rate is halved once
        assertThat(aimd.factor(SECOND + SECOND / 2)).isEqualTo(0.5);

        // and another throttle a second later halves it again
        aimd.throttled(2 * SECOND);
        assertThat(aimd.factor(2 * SECOND)).isEqualTo(0.25);

        // and every quiet second adds 5% back, up to the whole budget
        assertThat(aimd.factor(4 * SECOND)).isCloseTo(0.35, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(aimd.factor(100 * SECOND)).isEqualTo(1.0);
    }

    @Test
    void neverGoesBelowItsFloor() {
        var aimd = new Aimd(0.02, 0.05);
        for (int i = 0; i < 30; i++) {
            aimd.throttled(i * SECOND);
        }
        assertThat(aimd.factor(29 * SECOND)).isEqualTo(0.02);
    }
}
