package io.dynarestore.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.filter.InvalidFilterException;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.testkit.RandomItems;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filter expressions from anywhere in their space, sensible or not: 3,000 seeded filters of
 * random conditions, types, value counts and values (numbers that are not, empty strings,
 * reversed ranges, unknown conditions and types, nulls), against keys of every type. Each one
 * compiles, or is refused with its fields; a compiled one decides every item without throwing.
 */
class FilterFuzzTest {

    static final String[] CONDITIONS = {
        "EqualTo",
        "NotEqualTo",
        "BeginsWith",
        "Between",
        "GreaterThan",
        "GreaterThanOrEqualTo",
        "LessThan",
        "LessThanOrEqualTo",
        "Exists",
        "NotExists",
        "Contains",
        "In",
        "equalto",
        "",
        null,
        "Matches"
    };
    static final String[] TYPES = {"S", "N", "B", "BOOL", "NULL", "SS", "M", "", null, "s"};
    static final String[] VALUES = {
        "a",
        "p1",
        "",
        "0",
        "-1",
        "1e3",
        "1e400",
        "NaN",
        "abc",
        "AAEC",
        "not base64!",
        "true",
        "false",
        "\u0000",
        "z".repeat(2_000),
        "12345678901234567890123456789012345678901",
        null
    };

    static IntStream cases() {
        return IntStream.range(0, 3_000);
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void compilesOrRefusesEveryFilterAndNeverThrowsOnAnItem(int seed) {
        var random = new Random(seed);
        var keyFilters = new ArrayList<Scope.KeyFilter>();
        for (int i = 0, n = random.nextInt(3); i < n; i++) {
            keyFilters.add(new Scope.KeyFilter(
                    random.nextInt(8) == 0 ? null : condition(random),
                    random.nextBoolean() ? null : condition(random)));
        }
        var attributeFilters = new ArrayList<Scope.AttributeFilter>();
        for (int i = 0, n = random.nextInt(3); i < n; i++) {
            attributeFilters.add(new Scope.AttributeFilter(
                    pick(random, new String[] {"g", "l", "pk", "missing", "", null}),
                    pick(random, TYPES),
                    pick(random, CONDITIONS),
                    values(random)));
        }
        String[] keyTypes = {"S", "N", "B"};
        var key = KeySchema.of(List.of("pk", "sk"), List.of(keyTypes[seed % 3], keyTypes[(seed / 3) % 3]));
        try {
            var filter = RecordFilter.compile(
                    new Scope.Records(
                            random.nextInt(10) == 0 ? null : keyFilters,
                            random.nextInt(10) == 0 ? null : attributeFilters),
                    key);
            for (var item : new RandomItems(seed, RandomItems.Shape.simple()).items(25)) {
                filter.matches(item);
            }
        } catch (InvalidFilterException e) {
            assertThat(e.errors()).isNotEmpty().allSatisfy(error -> {
                assertThat(error.field()).isNotNull();
                assertThat(error.message()).isNotBlank();
            });
        }
    }

    static Scope.Condition condition(Random random) {
        return new Scope.Condition(pick(random, CONDITIONS), values(random));
    }

    static List<String> values(Random random) {
        if (random.nextInt(10) == 0) {
            return null;
        }
        var values = new ArrayList<String>();
        for (int i = 0, n = random.nextInt(4); i < n; i++) {
            values.add(pick(random, VALUES));
        }
        return values;
    }

    static String pick(Random random, String[] from) {
        return from[random.nextInt(from.length)];
    }
}
