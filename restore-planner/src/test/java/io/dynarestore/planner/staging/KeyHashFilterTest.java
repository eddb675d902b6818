package io.dynarestore.planner.staging;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.pitr.KeyHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class KeyHashFilterTest {

    static Stream<Long> seeds() {
        return Stream.of(1L, 2L, 3L, 4L, 5L);
    }

    static List<KeyHash> keys(SplittableRandom random, int count, String prefix) {
        var keys = new ArrayList<KeyHash>(count);
        for (int i = 0; i < count; i++) {
            var key = Map.of(
                    "pk", AttributeValue.fromS(prefix + random.nextLong()),
                    "sk", AttributeValue.fromN(String.valueOf(random.nextInt())));
            keys.add(KeyHash.of(key, List.of("pk", "sk")));
        }
        return keys;
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void holdsEveryKeyAddedAndAboutOnePercentOfOthersWhenSizedForThem(long seed) {
        // Given a filter sized for 20,000 keys and those keys added
        var random = new SplittableRandom(seed);
        var added = keys(random, 20_000, "in-");
        var filter = KeyHashFilter.sizedFor(added.size(), 1 << 20);
        added.forEach(filter::add);

        // When keys added and 20,000 others are looked up
        var others = keys(random, 20_000, "out-");
        long falsePositives = others.stream().filter(filter::mayContain).count();

        // Then every key added may be there, and at most 2% of the others seem to be
        assertThat(added).allMatch(filter::mayContain);
        assertThat(falsePositives).isLessThanOrEqualTo(400);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void staysWithinItsMemoryAndMissesNoKeyWhenGivenFarMoreKeysThanItWasSizedFor(long seed) {
        // Given a filter capped at 1 KB, and 50,000 keys added
        var random = new SplittableRandom(seed);
        var filter = KeyHashFilter.sizedFor(50_000, 1_024);
        var added = keys(random, 50_000, "in-");
        added.forEach(filter::add);

        // Then it holds 1 KB, and every key added may be there
        assertThat(filter.bytes()).isEqualTo(1_024);
        assertThat(added).allMatch(filter::mayContain);
    }
}
