package io.dynarestore.writer.segments;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class RevertConditionTest {

    @Test
    void requiresAnAbsentKeyToStayAbsent() {
        var condition = RevertCondition.of(null, "pk");

        assertThat(condition.expression()).isEqualTo("attribute_not_exists(#k)");
        assertThat(condition.names()).containsExactly(Map.entry("#k", "pk"));
        assertThat(condition.values()).isNull();
    }

    @Test
    void requiresEveryAttributeOfTheExpectedImageToBeEqualInNameOrder() {
        // Given an image with a key, a list and a map (whose names need placeholders: "size" is reserved)
        var image = new LinkedHashMap<String, AttributeValue>();
        image.put("size", AttributeValue.fromN("3"));
        image.put("pk", AttributeValue.fromS("a"));
        image.put("tags", AttributeValue.fromL(java.util.List.of(AttributeValue.fromS("x"))));

        // When its condition is built
        var condition = RevertCondition.of(image, "pk");

        // Then each attribute is compared through placeholders, in name order
        assertThat(condition.expression()).isEqualTo("#a0 = :v0 AND #a1 = :v1 AND #a2 = :v2");
        assertThat(condition.names())
                .containsEntry("#a0", "pk")
                .containsEntry("#a1", "size")
                .containsEntry("#a2", "tags");
        assertThat(condition.values()).containsEntry(":v1", AttributeValue.fromN("3"));
    }

    @Test
    void comparesAtMostTwoHundredAttributesToStayWithinDynamoDbsExpressionLimit() {
        var image = new LinkedHashMap<String, AttributeValue>();
        for (int i = 0; i < 300; i++) {
            image.put(String.format("a%03d", i), AttributeValue.fromN(Integer.toString(i)));
        }

        var condition = RevertCondition.of(image, "a000");

        assertThat(condition.names()).hasSize(RevertCondition.MAX_ATTRIBUTES);
        assertThat(condition.expression().length()).isLessThan(4096);
    }
}
