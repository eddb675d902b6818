package io.dynarestore.testkit;

import java.util.Base64;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** DynamoDB JSON of an item, as a native DYNAMODB_JSON export writes it: each value a one-member object of its type. */
final class DynamoJsonText {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private DynamoJsonText() {}

    static ObjectNode of(Map<String, AttributeValue> item) {
        ObjectNode node = JSON.createObjectNode();
        item.forEach((name, value) -> node.set(name, value(value)));
        return node;
    }

    private static JsonNode value(AttributeValue v) {
        ObjectNode node = JSON.createObjectNode();
        switch (v.type()) {
            case S -> node.put("S", v.s());
            case N -> node.put("N", v.n());
            case B -> node.put("B", Base64.getEncoder().encodeToString(v.b().asByteArray()));
            case BOOL -> node.put("BOOL", v.bool());
            case NUL -> node.put("NULL", true);
            case M -> node.set("M", of(v.m()));
            case L -> {
                ArrayNode list = node.putArray("L");
                v.l().forEach(e -> list.add(value(e)));
            }
            case SS -> v.ss().forEach(node.putArray("SS")::add);
            case NS -> v.ns().forEach(node.putArray("NS")::add);
            case BS -> {
                ArrayNode set = node.putArray("BS");
                v.bs().forEach(b -> set.add(Base64.getEncoder().encodeToString(b.asByteArray())));
            }
            default -> throw new IllegalArgumentException("no DynamoDB JSON for " + v.type());
        }
        return node;
    }
}
