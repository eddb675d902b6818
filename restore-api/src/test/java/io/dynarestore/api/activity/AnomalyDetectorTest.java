package io.dynarestore.api.activity;

import static io.dynarestore.api.activity.Workloads.SECOND;
import static io.dynarestore.api.activity.Workloads.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.api.activity.AnomalyDetector.Signal;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class AnomalyDetectorTest {

    static final long MINUTE = 60 * SECOND;

    static Stream<Arguments> bursts() {
        return Stream.of(Workloads.Burst.MASS_DELETE, Workloads.Burst.ATTRIBUTE_REWRITE)
                .flatMap(b -> IntStream.range(0, 20).mapToObj(i -> Arguments.of(b, 900L + i)));
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("bursts")
    void flagsABurstAtItsStepAndSuggestsASecondWithinOneStepBeforeIt(Workloads.Burst burst, long seed) {
        // Given an hour of background writes with a burst at a random second
        var workload = Workloads.random(seed, 60, burst);
        var vault = new Workloads.Vault(workload.writes()).export(START - SECOND, workload.end(), null);

        // When it is counted by the minute and judged
        var steps = new ChangeCounts(vault)
                .count(START, workload.end(), MINUTE, Long.MAX_VALUE)
                .steps();
        var flags = new AnomalyDetector().flags(steps, 0);

        // Then exactly one run is flagged, with the burst's signal, and its restore point is the last
        // second before the step where the burst starts: before the burst, and within one step of it
        assertThat(flags).as("flags of seed %d", seed).hasSize(1);
        var flag = flags.get(0);
        assertThat(flag.signals()).contains(Signal.valueOf(burst.name()));
        long runStart = steps.get(flag.first()).startMicros;
        long suggested = runStart - SECOND;
        assertThat(suggested).isLessThan(workload.burstStart());
        assertThat(workload.burstStart() - suggested).isLessThanOrEqualTo(MINUTE + SECOND);
    }

    @ParameterizedTest
    @EnumSource(value = Workloads.Burst.class, names = "NONE")
    void flagsNothingInAtLeast19Of20WorkloadsWithoutABurst(Workloads.Burst none) {
        // Given twenty random hours of background writes only
        long flagged = IntStream.range(0, 20)
                .filter(i -> {
                    var workload = Workloads.random(1_000 + i, 60, none);
                    var vault = new Workloads.Vault(workload.writes()).export(START - SECOND, workload.end(), null);
                    var steps = new ChangeCounts(vault)
                            .count(START, workload.end(), MINUTE, Long.MAX_VALUE)
                            .steps();
                    // When each is judged
                    return !new AnomalyDetector().flags(steps, 0).isEmpty();
                })
                .count();

        // Then at most one raises a flag
        assertThat(flagged).isLessThanOrEqualTo(1);
    }
}
