package io.dynarestore.contracts.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScopeDescriptionTest {

    @Test
    void describesKeyAndAttributeFiltersInWordsAndAWholeTableAsNothing() {
        var scope = new Scope.Records(
                List.of(
                        new Scope.KeyFilter(
                                new Scope.Condition("BeginsWith", List.of("p12")),
                                new Scope.Condition("sk", "Between", List.of("1", "9"))),
                        new Scope.KeyFilter(new Scope.Condition("EqualTo", List.of("x")), null)),
                List.of(new Scope.AttributeFilter("status", "S", "EqualTo", List.of("open"))));

        assertThat(ScopeDescription.of(scope))
                .isEqualTo(
                        "partition key BeginsWith p12 and sk Between 1, 9; partition key EqualTo x; status EqualTo open");
        assertThat(ScopeDescription.of(new Scope.Full())).isNull();
        assertThat(ScopeDescription.of(null)).isNull();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void keepsNoMoreThanItsBoundHoweverManyAndLongTheFiltersAre(long seed) {
        // Given up to 200 key filters of values up to 2,000 characters
        var random = new Random(seed);
        var filters = new ArrayList<Scope.KeyFilter>();
        for (int i = random.nextInt(200) + 1; i > 0; i--) {
            filters.add(new Scope.KeyFilter(
                    new Scope.Condition("EqualTo", List.of("v".repeat(random.nextInt(2_000) + 1))), null));
        }

        // When they are described, Then the words stay within the bound, cut with an ellipsis when longer
        String words = ScopeDescription.of(new Scope.Records(filters, null));
        assertThat(words).hasSizeLessThanOrEqualTo(ScopeDescription.MAX_CHARS).startsWith("partition key EqualTo v");
        if (words.length() == ScopeDescription.MAX_CHARS) {
            assertThat(words).endsWith("…");
        }
    }
}
