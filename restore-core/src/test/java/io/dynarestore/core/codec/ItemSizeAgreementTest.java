package io.dynarestore.core.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.ItemBytes;
import io.dynarestore.testkit.RandomItems;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The capacity proxy that tests and benchmarks meter writes with sizes items by its own code; it
 * must agree with the writers' {@link ItemSize}, or a budget test would measure the wrong thing.
 */
class ItemSizeAgreementTest {

    static final JsonMapper JSON = JsonMapper.builder().build();

    static LongStream seeds() {
        return LongStream.range(0, 20);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void theCapacityProxySizesEveryItemAsTheWritersDo(long seed) {
        // Given random items of every type (and a large one)
        var items = new RandomItems(seed, new RandomItems.Shape("pk", "S", "sk", "N", java.util.Map.of("g", "S")));
        for (int i = 0; i < 100; i++) {
            var item = i == 50 ? items.largeItem(i, 100_000) : items.item(i);

            // When both size it
            long writers = ItemSize.of(item);
            long proxy = ItemBytes.size(JSON.readTree(DynamoJson.toJson(item)));

            // Then they agree
            assertThat(proxy)
                    .as("item %d of seed %d: %s", i, seed, DynamoJson.toJson(item))
                    .isEqualTo(writers);
        }
    }
}
