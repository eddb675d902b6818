package io.dynarestore.core.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ItemSizeTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "string counts name and UTF-8 bytes | {\"id\":{\"S\":\"abc\"}}                 | 5",
                "multi-byte string                  | {\"id\":{\"S\":\"é\"}}                   | 4",
                "number of 3 significant digits     | {\"n\":{\"N\":\"123\"}}                  | 4",
                "leading zeros do not count         | {\"n\":{\"N\":\"0.00123\"}}              | 4",
                "trailing zeros do not count        | {\"n\":{\"N\":\"408000000000\"}}         | 4",
                "zero is one byte                   | {\"n\":{\"N\":\"0\"}}                    | 2",
                "bool and null are one byte         | {\"t\":{\"BOOL\":true},\"z\":{\"NULL\":true}} | 4",
                "map is 3 bytes plus 1 per element  | {\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}}}       | 7",
                "binary counts its bytes            | {\"b\":{\"B\":\"AAECAw==\"}}              | 5",
            })
    void sizesItemsAsDynamoDbBillsThem(String rule, String json, long bytes) {
        Map<String, AttributeValue> item = DynamoJson.fromJson(json);
        assertThat(ItemSize.of(item)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @CsvSource({"1,1", "1024,1", "1025,2", "358400,350"})
    void chargesOneWriteUnitPerStartedKilobyte(long bytes, long wcu) {
        assertThat(ItemSize.wcu(bytes)).isEqualTo(wcu);
    }
}
