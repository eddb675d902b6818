package io.dynarestore.core.codec;

import io.dynarestore.contracts.Json;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.utils.builder.SdkBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * AWS SDK model objects in the JSON shape of the AWS API (the shape that {@code aws dynamodb
 * describe-table} prints): member names as on the wire, timestamps as epoch seconds. A table
 * description written this way can be read back into the SDK model without loss, and a user
 * can write one from the AWS CLI's output.
 */
public final class SdkJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private SdkJson() {
    }

    public static ObjectNode toJson(SdkPojo pojo) {
        ObjectNode node = NODES.objectNode();
        for (SdkField<?> field : pojo.sdkFields()) {
            Object value = field.getValueOrDefault(pojo);
            if (value == null || isAbsentCollection(value)) {
                continue;
            }
            node.set(field.locationName(), write(field, value));
        }
        return node;
    }

    private static boolean isAbsentCollection(Object value) {
        // the SDK returns auto-construct lists and maps for members that were never set
        return value instanceof software.amazon.awssdk.core.util.SdkAutoConstructList
                || value instanceof software.amazon.awssdk.core.util.SdkAutoConstructMap;
    }

    private static JsonNode write(SdkField<?> field, Object value) {
        MarshallingType<?> type = field.marshallingType();
        if (type == MarshallingType.SDK_POJO) {
            return toJson((SdkPojo) value);
        }
        if (type == MarshallingType.LIST) {
            SdkField<?> member = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
            ArrayNode array = NODES.arrayNode();
            for (Object element : (List<?>) value) {
                array.add(write(member, element));
            }
            return array;
        }
        if (type == MarshallingType.MAP) {
            SdkField<?> member = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
            ObjectNode map = NODES.objectNode();
            for (var e : ((Map<?, ?>) value).entrySet()) {
                map.set(String.valueOf(e.getKey()), write(member, e.getValue()));
            }
            return map;
        }
        if (type == MarshallingType.INSTANT) {
            Instant t = (Instant) value;
            return NODES.numberNode(BigDecimal.valueOf(t.getEpochSecond()).add(BigDecimal.valueOf(t.getNano(), 9))
                    .stripTrailingZeros());
        }
        if (type == MarshallingType.SDK_BYTES) {
            return NODES.binaryNode(((SdkBytes) value).asByteArray());
        }
        if (value instanceof String s) {
            return NODES.stringNode(s);
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (value instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (value instanceof Double d) {
            return NODES.numberNode(d);
        }
        if (value instanceof Float f) {
            return NODES.numberNode(f);
        }
        if (value instanceof BigDecimal d) {
            return NODES.numberNode(d);
        }
        throw new IllegalArgumentException("cannot write " + type + " member " + field.memberName());
    }

    /** Reads JSON of the AWS API shape into the model built by {@code builder}. */
    @SuppressWarnings("unchecked")
    public static <T> T fromJson(JsonNode json, SdkBuilder<?, T> builder) {
        populate((SdkPojo) builder, json);
        return builder.build();
    }

    public static <T> T fromJson(String json, SdkBuilder<?, T> builder) {
        return fromJson(Json.mapper().readTree(json), builder);
    }

    private static void populate(SdkPojo builder, JsonNode json) {
        if (!json.isObject()) {
            throw new IllegalArgumentException("expected an object but found " + json.getNodeType());
        }
        for (SdkField<?> field : builder.sdkFields()) {
            JsonNode value = json.get(field.locationName());
            if (value == null || value.isNull()) {
                continue;
            }
            field.set(builder, read(field, value));
        }
    }

    private static Object read(SdkField<?> field, JsonNode value) {
        MarshallingType<?> type = field.marshallingType();
        if (type == MarshallingType.SDK_POJO) {
            Supplier<SdkPojo> constructor = field.constructor();
            SdkPojo nested = constructor.get();
            populate(nested, value);
            return ((SdkBuilder<?, ?>) nested).build();
        }
        if (type == MarshallingType.LIST) {
            SdkField<?> member = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
            var list = new ArrayList<>();
            for (JsonNode element : value) {
                list.add(read(member, element));
            }
            return list;
        }
        if (type == MarshallingType.MAP) {
            SdkField<?> member = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
            var map = new LinkedHashMap<String, Object>();
            for (var e : value.properties()) {
                map.put(e.getKey(), read(member, e.getValue()));
            }
            return map;
        }
        if (type == MarshallingType.INSTANT) {
            BigDecimal seconds = value.decimalValue();
            long whole = seconds.longValue();
            int nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).intValue();
            return Instant.ofEpochSecond(whole, nanos);
        }
        if (type == MarshallingType.SDK_BYTES) {
            return SdkBytes.fromByteArray(value.binaryValue());
        }
        if (type == MarshallingType.STRING) {
            return value.asString();
        }
        if (type == MarshallingType.BOOLEAN) {
            return value.asBoolean();
        }
        if (type == MarshallingType.INTEGER) {
            return value.asInt();
        }
        if (type == MarshallingType.LONG) {
            return value.asLong();
        }
        if (type == MarshallingType.DOUBLE) {
            return value.asDouble();
        }
        if (type == MarshallingType.FLOAT) {
            return (float) value.asDouble();
        }
        if (type == MarshallingType.BIG_DECIMAL) {
            return value.decimalValue();
        }
        throw new IllegalArgumentException("cannot read " + type + " member " + field.memberName());
    }
}
