package io.dynarestore.core.codec;

import io.dynarestore.contracts.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.core.util.SdkAutoConstructList;
import software.amazon.awssdk.core.util.SdkAutoConstructMap;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.utils.builder.SdkBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.JsonNodeException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * AWS SDK model objects in the JSON shape of the AWS API (the shape that {@code aws dynamodb
 * describe-table} prints): member names as on the wire, timestamps written as epoch seconds. A
 * table description written this way can be read back into the SDK model without loss.
 *
 * <p>Reading takes every shape the AWS CLIs and SDKs print timestamps in: epoch seconds (AWS
 * CLI v1, the wire), as numbers or strings, and ISO-8601 (AWS CLI v2 {@code 2026-11-30T10:15:42.123000+00:00},
 * JavaScript {@code ...Z}, Python's {@code str()} with a space). A value of the wrong type is an
 * {@link InvalidJsonException} naming its member's path, never a default nor a 500.
 */
public final class SdkJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern EPOCH_SECONDS = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    private SdkJson() {}

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
        return value instanceof SdkAutoConstructList || value instanceof SdkAutoConstructMap;
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
            return NODES.numberNode(BigDecimal.valueOf(t.getEpochSecond())
                    .add(BigDecimal.valueOf(t.getNano(), 9))
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

    /** A member whose value cannot be read, with its path (such as {@code /ProvisionedThroughput/ReadCapacityUnits}). */
    public static final class InvalidJsonException extends IllegalArgumentException {
        private final String path;
        private final String reason;

        InvalidJsonException(String path, String reason) {
            super((path.isEmpty() ? "(root)" : path) + " " + reason);
            this.path = path;
            this.reason = reason;
        }

        public String path() {
            return path;
        }

        /** What is wrong with the member, without its path. */
        public String reason() {
            return reason;
        }
    }

    /** Reads JSON of the AWS API shape into the model built by {@code builder}. */
    @SuppressWarnings("unchecked")
    public static <T> T fromJson(JsonNode json, SdkBuilder<?, T> builder) {
        populate((SdkPojo) builder, json, "");
        return builder.build();
    }

    /**
     * A table description as a user pastes it: the output of {@code aws dynamodb describe-table}
     * ({@code {"Table": {...}}}) or its {@code Table} member, in any shape {@link SdkJson} reads.
     */
    public static TableDescription tableDescription(JsonNode json) {
        JsonNode table =
                json != null && json.isObject() && json.size() == 1 && json.has("Table") ? json.get("Table") : json;
        if (table == null || !table.isObject()) {
            throw new InvalidJsonException("", "must be the output of 'aws dynamodb describe-table' (an object)");
        }
        if (!table.has("KeySchema") || !table.has("AttributeDefinitions")) {
            throw new InvalidJsonException(
                    "",
                    "names no KeySchema and AttributeDefinitions; give the output of "
                            + "'aws dynamodb describe-table' (or its Table member)");
        }
        return fromJson(table, TableDescription.builder());
    }

    public static <T> T fromJson(String json, SdkBuilder<?, T> builder) {
        return fromJson(Json.mapper().readTree(json), builder);
    }

    private static void populate(SdkPojo builder, JsonNode json, String path) {
        if (!json.isObject()) {
            throw new InvalidJsonException(path, "must be an object, not " + json.getNodeType());
        }
        for (SdkField<?> field : builder.sdkFields()) {
            JsonNode value = json.get(field.locationName());
            if (value == null || value.isNull()) {
                continue;
            }
            field.set(builder, read(field, value, path + "/" + field.locationName()));
        }
    }

    private static Object read(SdkField<?> field, JsonNode value, String path) {
        MarshallingType<?> type = field.marshallingType();
        if (type == MarshallingType.SDK_POJO) {
            Supplier<SdkPojo> constructor = field.constructor();
            SdkPojo nested = constructor.get();
            populate(nested, value, path);
            return ((SdkBuilder<?, ?>) nested).build();
        }
        if (type == MarshallingType.LIST) {
            if (!value.isArray()) {
                throw new InvalidJsonException(path, "must be a list, not " + value.getNodeType());
            }
            SdkField<?> member = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
            var list = new ArrayList<>();
            int i = 0;
            for (JsonNode element : value) {
                list.add(read(member, element, path + "/" + i++));
            }
            return list;
        }
        if (type == MarshallingType.MAP) {
            if (!value.isObject()) {
                throw new InvalidJsonException(path, "must be an object, not " + value.getNodeType());
            }
            SdkField<?> member = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
            var map = new LinkedHashMap<String, Object>();
            for (var e : value.properties()) {
                map.put(e.getKey(), read(member, e.getValue(), path + "/" + e.getKey()));
            }
            return map;
        }
        return scalar(type, value, path);
    }

    /** A member that is neither an object, a list nor a map, checked for its type. */
    private static Object scalar(MarshallingType<?> type, JsonNode value, String path) {
        if (type == MarshallingType.INSTANT) {
            return instant(value, path);
        }
        if (type == MarshallingType.SDK_BYTES) {
            if (!value.isString() && !value.isBinary()) {
                throw new InvalidJsonException(path, "must be base64 text, not " + value.getNodeType());
            }
            try {
                return SdkBytes.fromByteArray(value.binaryValue());
            } catch (RuntimeException e) {
                throw new InvalidJsonException(path, "is not base64");
            }
        }
        if (type == MarshallingType.STRING) {
            if (!value.isString() && !value.isNumber() && !value.isBoolean()) {
                throw new InvalidJsonException(path, "must be text, not " + value.getNodeType());
            }
            return value.asString();
        }
        if (type == MarshallingType.BOOLEAN) {
            if (!value.isBoolean()) {
                throw new InvalidJsonException(path, "must be true or false, not " + value);
            }
            return value.asBoolean();
        }
        BigDecimal number = number(value, path);
        try {
            if (type == MarshallingType.INTEGER) {
                return number.intValueExact();
            }
            if (type == MarshallingType.LONG) {
                return number.longValueExact();
            }
        } catch (ArithmeticException e) {
            throw new InvalidJsonException(path, "must be a whole number in range, not " + value);
        }
        if (type == MarshallingType.DOUBLE) {
            return number.doubleValue();
        }
        if (type == MarshallingType.FLOAT) {
            return number.floatValue();
        }
        if (type == MarshallingType.BIG_DECIMAL) {
            return number;
        }
        throw new InvalidJsonException(path, "is a " + type + " member, which cannot be read");
    }

    private static BigDecimal number(JsonNode value, String path) {
        try {
            if (value.isNumber()) {
                return value.decimalValue();
            }
            if (value.isString()) {
                return new BigDecimal(value.asString().trim());
            }
        } catch (NumberFormatException | JsonNodeException e) {
            // a number JSON parsers make infinite (1e400), or text that is none: reported below
        }
        throw new InvalidJsonException(path, "must be a finite number, not " + value);
    }

    /**
     * A timestamp as the AWS CLIs and SDKs print it: epoch seconds (a number or a numeric string,
     * with a fraction), or ISO-8601 with a zone ({@code Z}, {@code +00:00}), {@code T} or a space
     * between date and time, any fraction of a second; without a zone it is UTC.
     */
    static Instant instant(JsonNode value, String path) {
        if (!value.isNumber() && !value.isString()) {
            throw new InvalidJsonException(
                    path, "must be a time (epoch seconds or ISO-8601), not " + value.getNodeType());
        }
        String text = value.asString().trim();
        if (value.isNumber() || EPOCH_SECONDS.matcher(text).matches()) {
            return epochSeconds(number(value, path), path);
        }
        String iso = text.replaceFirst("^(\\d{4}-\\d{2}-\\d{2}) ", "$1T");
        try {
            return OffsetDateTime.parse(iso).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e2) {
                throw new InvalidJsonException(
                        path,
                        "'" + (text.length() > 64 ? text.substring(0, 64) + "..." : text)
                                + "' is not a time: give epoch seconds (1764583200.5) or ISO-8601 (2025-12-01T10:00:00Z)");
            }
        }
    }

    private static Instant epochSeconds(BigDecimal seconds, String path) {
        try {
            long whole = seconds.setScale(0, RoundingMode.FLOOR).longValueExact();
            int nanos = seconds.subtract(BigDecimal.valueOf(whole))
                    .movePointRight(9)
                    .intValue();
            return Instant.ofEpochSecond(whole, nanos);
        } catch (ArithmeticException | DateTimeException e) {
            throw new InvalidJsonException(path, "is " + seconds.toPlainString() + " seconds, out of range for a time");
        }
    }
}
