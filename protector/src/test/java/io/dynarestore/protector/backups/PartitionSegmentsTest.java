package io.dynarestore.protector.backups;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionSegmentsTest {

    @Test
    void commitsNothingPastASegmentThatStillRuns() {
        // Given segments started at offsets 0, 1 and 2
        var p = new PartitionSegments<String>();
        p.started(0, "s0", "s0");
        p.started(1, "s1", "s1");
        p.started(2, "s2", "s2");

        // When the later two end
        p.reap(s -> !s.equals("s0"));

        // Then the commit stays at the one still running, and moves past all three once it ends
        assertThat(p.toCommit()).hasValue(0);
        p.committed(0);
        p.reap(s -> true);
        assertThat(p.toCommit()).hasValue(3);
        assertThat(p.toCommit()).as("asked again until the broker took it").hasValue(3);
        p.committed(3);
        assertThat(p.toCommit()).as("nothing new to commit").isEmpty();
    }

    @Test
    void aRequestThatRunsNothingIsCommittedOnceNothingBeforeItRuns() {
        // Given a segment running at offset 4, and a duplicate of it and a dead letter read after it
        var p = new PartitionSegments<String>();
        p.started(4, "table/b/0", "run");
        assertThat(p.runs("table/b/0")).isTrue();
        p.passed(5);
        p.passed(6);

        // Then nothing past 4 is committed while it runs; after it, everything read is
        assertThat(p.toCommit()).hasValue(4);
        p.reap(s -> true);
        assertThat(p.runs("table/b/0")).isFalse();
        assertThat(p.toCommit()).hasValue(7);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void theCommittedOffsetNeverPassesAnUnendedSegmentAndNeverGoesBack(long seed) {
        // Given random requests read in order, some run and some not, ending in random order
        var random = new Random(seed);
        var p = new PartitionSegments<Long>();
        Set<Long> unended = new HashSet<>();
        List<Long> commits = new ArrayList<>();
        long offset = 0;
        for (int step = 0; step < 500; step++) {
            if (random.nextInt(3) > 0) {
                if (random.nextBoolean()) {
                    p.started(offset, "k" + offset, offset);
                    unended.add(offset);
                } else {
                    p.passed(offset);
                }
                offset++;
            } else if (!unended.isEmpty()) {
                long end = unended.stream()
                        .skip(random.nextInt(unended.size()))
                        .findFirst()
                        .orElseThrow();
                unended.remove(end);
                p.reap(s -> s == end);
            }
            OptionalLong c = p.toCommit();
            c.ifPresent(commits::add);
            if (c.isPresent() && random.nextInt(4) > 0) {
                p.committed(c.getAsLong()); // a commit the broker refused (a rebalance) is asked for again
            }
            // Then a committed offset is never past an unended segment
            if (c.isPresent()) {
                assertThat(unended).allSatisfy(u -> assertThat(c.getAsLong()).isLessThanOrEqualTo(u));
            }
        }
        // and the commits only move forward
        assertThat(commits).isSorted();
        assertThat(p.size()).isEqualTo(unended.size());
    }
}
