package io.dynarestore.api.activity;

import static io.dynarestore.api.activity.Workloads.SECOND;
import static io.dynarestore.api.activity.Workloads.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata.ShardGroup;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ChangeCountsTest {

    /** A step's counts as a line: creates, overwrites, deletes, write units. */
    static String line(long creates, long overwrites, long deletes, long units) {
        return creates + "c " + overwrites + "o " + deletes + "d " + units + "wu";
    }

    static Stream<Long> seeds() {
        return IntStream.range(0, 20).mapToObj(i -> 400L + i);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void countsEveryWriteOnceInItsStepWhateverExportsHoldIt(long seed) {
        // Given a random workload held by a chain of exports, then two shard groups' chains, and
        // exports that repeat stretches of it
        var r = new Random(seed);
        var workload = Workloads.random(seed, 40, Workloads.Burst.values()[r.nextInt(3)]);
        var vault = new Workloads.Vault(workload.writes());
        long half = START + 20 * 60 * SECOND;
        for (long t = START - SECOND; t < half; ) {
            long length = (10 + r.nextInt(290)) * SECOND + r.nextInt(1000);
            vault.export(t, Math.min(half, t + length), null);
            t += length;
        }
        for (int g = 0; g < 2; g++) {
            for (long t = half; t < workload.end(); ) {
                long length = (10 + r.nextInt(290)) * SECOND;
                vault.export(t, Math.min(workload.end(), t + length), new ShardGroup(g, 2));
                t += length;
            }
        }
        for (int i = 0; i < 4; i++) {
            long from = START + r.nextInt(38 * 60) * SECOND;
            vault.export(from, from + (1 + r.nextInt(120)) * SECOND, null);
        }

        // When they are counted by a random step over a random range
        long step = new long[] {SECOND, 10 * SECOND, 60 * SECOND}[r.nextInt(3)];
        long from = START + r.nextInt(600) * SECOND / step * step;
        long to = from + (1 + r.nextInt(1500)) * step;
        var result = new ChangeCounts(vault).count(from, to, step, Long.MAX_VALUE);

        // Then each step's counts are a brute-force count of the write log's writes in it
        assertThat(result.complete()).isTrue();
        assertThat(result.approximate()).isFalse();
        assertThat(result.steps()).hasSize((int) ((to - from) / step));
        for (var s : result.steps()) {
            long c = 0, o = 0, d = 0, u = 0;
            for (ExportLine w : workload.writes()) {
                long ts = w.writeTimestampMicros();
                if (ts >= s.startMicros && ts < s.startMicros + step) {
                    if (w.newImage() == null) {
                        d++;
                        u += ChangeCounts.units(w.oldImage());
                    } else if (w.oldImage() == null) {
                        c++;
                        u += ChangeCounts.units(w.newImage());
                    } else {
                        o++;
                        u += Math.max(ChangeCounts.units(w.oldImage()), ChangeCounts.units(w.newImage()));
                    }
                }
            }
            assertThat(line(s.creates, s.overwrites, s.deletes, s.writeUnits))
                    .as("seed %d step %s", seed, Workloads.instant(s.startMicros))
                    .isEqualTo(line(c, o, d, u));
        }
    }

    @Test
    void countsAWriteUnitPerStartedKilobyteOfTheLargerImage() {
        var small = Map.of("pk", AttributeValue.fromS("a"));
        assertThat(ChangeCounts.units(small)).isEqualTo(1);
        assertThat(ChangeCounts.units(null)).isEqualTo(1);
    }

    @Test
    void stopsAtTheDeadlineSayingUpToWhenEveryWriteIsCounted() {
        // Given a workload in several exports
        var workload = Workloads.random(3, 20, Workloads.Burst.NONE);
        var vault = new Workloads.Vault(workload.writes())
                .export(START, START + 600 * SECOND, null)
                .export(START + 600 * SECOND, workload.end(), null);

        // When the deadline has passed before the first export is read
        var result = new ChangeCounts(vault).count(START, workload.end(), 60 * SECOND, System.nanoTime() - 1);

        // Then the counts are incomplete, and counted up to the first export's start only
        assertThat(result.complete()).isFalse();
        assertThat(result.countedUntil()).isEqualTo(START);
        assertThat(List.copyOf(result.steps()).stream()
                        .mapToLong(s -> s.creates + s.overwrites + s.deletes)
                        .sum())
                .isZero();
    }
}
