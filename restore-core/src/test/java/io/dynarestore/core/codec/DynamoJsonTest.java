package io.dynarestore.core.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.testkit.RandomItems;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class DynamoJsonTest {

    static LongStream seeds() {
        return LongStream.range(0, 300);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void roundTripsRandomItemsOfEveryTypeExactly(long seed) {
        // Given a random item with nested maps, lists, sets and binary
        Map<String, AttributeValue> item = new RandomItems(seed, RandomItems.Shape.simple()).item(seed);

        // When it is written as DynamoDB JSON and read back
        Map<String, AttributeValue> back = DynamoJson.fromJson(DynamoJson.toJson(item));

        // Then it is equal, attribute order and set order included
        assertThat(back).isEqualTo(item);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "1.50",
                "-0",
                "1E+5",
                "0.000000000000000000000000000000000001",
                "99999999999999999999999999999999999999",
                "-1.2345678901234567890123456789012345678E-130",
                "007"
            })
    void keepsNumbersAsTheDecimalStringsTheyWere(String number) {
        // Given a number written in a non-canonical way
        String json = "{\"n\":{\"N\":\"" + number + "\"},\"ns\":{\"NS\":[\"" + number + "\",\"2\"]}}";

        // When read and written again
        String again = DynamoJson.toJson(DynamoJson.fromJson(json));

        // Then its text is unchanged: numbers never pass through binary floating point
        assertThat(again).isEqualTo(json);
    }

    @Test
    void writesEachTypeUnderItsTypeKey() {
        var item = DynamoJson.fromJson("""
                {"s":{"S":"x"},"n":{"N":"1"},"b":{"B":"AAEC"},"t":{"BOOL":true},"z":{"NULL":true},
                 "l":{"L":[{"S":"a"},{"N":"2"}]},"m":{"M":{"k":{"SS":["a","b"]}}},
                 "ns":{"NS":["1","2"]},"bs":{"BS":["AA==","AQ=="]}}""");
        assertThat(item.get("b").b().asByteArray()).containsExactly(0, 1, 2);
        assertThat(item.get("t").bool()).isTrue();
        assertThat(item.get("z").nul()).isTrue();
        assertThat(item.get("m").m().get("k").ss()).containsExactly("a", "b");
        assertThat(DynamoJson.toJson(item))
                .isEqualTo("{\"s\":{\"S\":\"x\"},\"n\":{\"N\":\"1\"},\"b\":{\"B\":\"AAEC\"},\"t\":{\"BOOL\":true},"
                        + "\"z\":{\"NULL\":true},\"l\":{\"L\":[{\"S\":\"a\"},{\"N\":\"2\"}]},"
                        + "\"m\":{\"M\":{\"k\":{\"SS\":[\"a\",\"b\"]}}},\"ns\":{\"NS\":[\"1\",\"2\"]},"
                        + "\"bs\":{\"BS\":[\"AA==\",\"AQ==\"]}}");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"a\":{\"X\":\"1\"}}",
                "{\"a\":{}}",
                "{\"a\":{\"S\":1}}",
                "{\"a\":{\"BOOL\":\"yes\"}}",
                "{\"a\":{\"NULL\":false}}",
                "{\"a\":{\"S\":\"x\",\"N\":\"1\"}}",
                "{\"a\":{\"B\":\"not base64!\"}}",
                "{\"a\":\"plain\"}"
            })
    void rejectsMalformedValuesSayingWhere(String json) {
        assertThatThrownBy(() -> DynamoJson.fromJson(json))
                .isInstanceOf(DynamoJsonException.class)
                .hasMessageContaining("line 1");
    }
}
