package io.dynarestore.core.pitr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class KeyRangeTest {

    static IntStream partCounts() {
        return IntStream.rangeClosed(1, 13);
    }

    private static List<KeyHash> randomHashes(long seed, int n) {
        var random = new Random(seed);
        var hashes = new ArrayList<KeyHash>();
        for (int i = 0; i < n; i++) {
            hashes.add(new KeyHash(random.nextLong(), random.nextLong()));
        }
        // the edges of the unsigned space, and of the signed one
        hashes.addAll(List.of(
                new KeyHash(0, 0),
                new KeyHash(-1, -1),
                new KeyHash(Long.MAX_VALUE, 0),
                new KeyHash(Long.MIN_VALUE, 0),
                new KeyHash(1, 0),
                new KeyHash(-2, 0)));
        return hashes;
    }

    @ParameterizedTest(name = "{0} parts")
    @MethodSource("partCounts")
    void everyHashFallsInExactlyOnePartAndThePartsFollowHashOrder(int parts) {
        // Given 20,000 seeded random hashes and the edges of the space
        var hashes = randomHashes(parts * 7919L, 20_000);

        // When each is placed among the parts
        hashes.sort(null);
        int previous = 0;
        int[] counts = new int[parts];
        for (KeyHash h : hashes) {
            int owners = 0;
            for (int p = 0; p < parts; p++) {
                if (new KeyRange(p, parts).contains(h)) {
                    owners++;
                    counts[p]++;
                }
            }
            // Then exactly one part holds it, and parts never go back as hashes grow
            assertThat(owners).as("parts holding %s", h).isEqualTo(1);
            int part = KeyRange.partOf(h, parts);
            assertThat(part).isBetween(previous, parts - 1);
            previous = part;
        }
        // and the parts are about equal (each within a tenth of its share)
        for (int c : counts) {
            assertThat(c).isBetween((int) (20_000 * 0.9 / parts), (int) (20_006 * 1.1 / parts) + 1);
        }
    }

    @Test
    void theLowestHashIsInTheFirstPartAndTheHighestInTheLast() {
        assertThat(KeyRange.partOf(new KeyHash(0, 0), 5)).isZero();
        assertThat(KeyRange.partOf(new KeyHash(-1, -1), 5)).isEqualTo(4);
        assertThat(KeyRange.partOf(new KeyHash(Long.MIN_VALUE, 0), 2)).isEqualTo(1);
        assertThat(KeyRange.partOf(new KeyHash(Long.MAX_VALUE, -1), 2)).isZero();
    }

    @Test
    void refusesAPartOutsideItsCount() {
        assertThatThrownBy(() -> new KeyRange(3, 3)).hasMessageContaining("part 3 of 3");
        assertThatThrownBy(() -> new KeyRange(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> partsAndSlices() {
        return IntStream.rangeClosed(1, 13)
                .boxed()
                .flatMap(parts -> IntStream.of(1, 2, 3, 16, 64)
                        .mapToObj(slices -> org.junit.jupiter.params.provider.Arguments.of(parts, slices)));
    }

    @ParameterizedTest(name = "{0} parts, {1} slices")
    @MethodSource("partsAndSlices")
    void eachPartsSliceSpanHoldsEveryHashOfThePartAndAtMostOneSliceMoreThanItsShare(int parts, int slices) {
        // Given seeded random hashes and the edges of the space
        var hashes = randomHashes(parts * 31L + slices, 20_000);
        for (int p = 0; p < parts; p++) {
            // When a part's span of slices is taken
            var range = new KeyRange(p, parts);
            int[] span = range.sliceSpan(slices);

            // Then every hash of the part lies in a slice of the span
            for (KeyHash h : hashes) {
                if (range.contains(h)) {
                    assertThat(KeyRange.partOf(h, slices))
                            .as("%s in part %d", h, p)
                            .isBetween(span[0], span[1]);
                }
            }
            // and the span holds no slice that shares no hash with the part: at most one more than its share
            assertThat(span[1] - span[0] + 1).isLessThanOrEqualTo((slices + parts - 1) / parts + 1);
            assertThat(span[0]).isBetween(0, span[1]);
            assertThat(span[1]).isLessThan(slices);
        }
        // and the first part starts at the first slice, the last ends at the last
        assertThat(new KeyRange(0, parts).sliceSpan(slices)[0]).isZero();
        assertThat(new KeyRange(parts - 1, parts).sliceSpan(slices)[1]).isEqualTo(slices - 1);
    }
}
