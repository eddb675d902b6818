package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LongestFirstTest {

    @Test
    void putsTheLongestAtBothEndsOfTheListWhereTheWorkersStartAndTheShortestInTheMiddle() {
        // Given nine classes ranked by length (0 the longest) and three workers
        List<Integer> byLength = IntStream.range(0, 9).boxed().toList();

        // When they are arranged
        var arranged = LongestFirst.arranged(byLength, 3);

        // Then the two workers that take from the start get 0, 1, then 3, 4, ..., the one that takes from
        // the end gets 2, then 5, ...
        assertThat(arranged).containsExactly(0, 1, 3, 4, 6, 7, 8, 5, 2);
    }

    @Test
    void keepsTheOrderByLengthForOneWorker() {
        assertThat(LongestFirst.arranged(List.of(0, 1, 2), 1)).containsExactly(0, 1, 2);
    }
}
