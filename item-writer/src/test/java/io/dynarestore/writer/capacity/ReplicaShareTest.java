package io.dynarestore.writer.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ReplicaShareTest {

    static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    @Test
    void isTheShareOfPartitionsOwnedUntilTheLagIsKnown() {
        var share = new ReplicaShare();
        share.totalPartitions(24);
        share.assigned(range(0, 8));
        assertThat(share.share()).isEqualTo(8 / 24.0);
        share.assigned(range(8, 12));
        assertThat(share.share()).isEqualTo(0.5);
    }

    @Test
    void followsThePendingWorkShrinkingAtOnceAndGrowingAfterTwoReadings() {
        // Given a replica that owns partitions 0-7 of 24
        var share = new ReplicaShare();
        share.totalPartitions(24);
        share.assigned(range(0, 8));

        // When most pending segments sit on its partitions
        Map<Integer, Long> lag = new HashMap<>();
        lag.put(0, 6L);
        lag.put(12, 2L);
        share.lag(lag);

        // Then it takes a larger share only when a second reading agrees, a step at a time
        assertThat(share.share()).isEqualTo(8 / 24.0);
        for (int i = 0; i < 20; i++) {
            share.lag(lag);
        }
        assertThat(share.share()).isEqualTo(0.75);

        // and gives it up at once when its work is done
        lag.put(0, 0L);
        share.lag(lag);
        assertThat(share.share()).isEqualTo(0.5 / 24);
    }

    static LongStream seeds() {
        return LongStream.range(0, 100);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void sharesOfReplicasReadingAtDifferentMomentsNeverAddUpToMuchMoreThanOne(long seed) {
        // Given 4 replicas of 6 partitions each, and work that appears and completes over time
        Random r = new Random(seed);
        var replicas = new ReplicaShare[4];
        for (int i = 0; i < 4; i++) {
            replicas[i] = new ReplicaShare();
            replicas[i].totalPartitions(24);
            replicas[i].assigned(range(i * 6, i * 6 + 6));
        }
        long[] lag = new long[24];
        double worst = 0;
        for (int step = 0; step < 2_000; step++) {
            // work changes: new segments arrive, some complete
            int p = r.nextInt(24);
            lag[p] = Math.max(0, lag[p] + (r.nextInt(3) == 0 ? -1 : r.nextInt(3)));
            // one replica reads the lag at a time (readings are staggered), each at least every 4 steps
            var reading = new HashMap<Integer, Long>();
            for (int i = 0; i < 24; i++) {
                reading.put(i, lag[i]);
            }
            replicas[step % 4].lag(reading);
            double sum = 0;
            for (ReplicaShare s : replicas) {
                sum += s.share();
            }
            // at most a few growth steps and the floor of idle replicas (half a partition each) over one
            worst = Math.max(worst, sum);
            assertThat(sum).as("step %d", step).isLessThanOrEqualTo(1.10);
        }
    }
}
