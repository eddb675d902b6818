package io.dynarestore.core.vault;

import io.dynarestore.core.codec.DynamoJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * Seeded random data-file lines built to trip a byte scan: key values of S, N and B with quotes,
 * backslashes, control characters, Unicode beyond the BMP and base64 of any bytes; key names used
 * again for attributes inside maps and lists; key attributes at any place in the item; full-export
 * lines and change lines with their members in any order; some lines with every non-ASCII
 * character escaped, as other JSON writers do.
 */
final class HostileLines {

    private static final String[] TRICKY = {
        "\"",
        "\\",
        "\n",
        "\t",
        "\u0001",
        "\u007f",
        "é",
        "日本",
        "😀",
        "\"Keys\":",
        "{\"S\":\"x\"}",
        "}",
        "{",
        " ",
        ",",
        "/"
    };
    private static final String[][] KEY_NAMES = {{"pk"}, {"pk", "sk"}, {"id"}, {"Item", "Keys"}, {"ключ", "sk"}};
    private static final JsonFactory ESCAPING =
            JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private final Random random;

    HostileLines(long seed) {
        this.random = new Random(seed);
    }

    /** A line, the member and key it holds, and whether non-ASCII characters were escaped. */
    record Line(String json, String member, List<String> keyNames, boolean escaped) {}

    Line next() {
        List<String> names = List.of(KEY_NAMES[random.nextInt(KEY_NAMES.length)]);
        var key = new LinkedHashMap<String, AttributeValue>();
        for (String name : names) {
            key.put(name, keyValue());
        }
        boolean change = random.nextBoolean();
        boolean escaped = random.nextInt(4) == 0;
        var out = new ByteArrayOutputStream();
        try (JsonGenerator g =
                escaped ? ESCAPING.createGenerator(ObjectWriteContext.empty(), out) : DynamoJson.generator(out)) {
            g.writeStartObject();
            if (change) {
                var members = new ArrayList<>(List.of("Metadata", "Keys", "OldImage", "NewImage"));
                Collections.shuffle(members, random);
                for (String member : members) {
                    switch (member) {
                        case "Metadata" -> {
                            g.writeName("Metadata");
                            DynamoJson.writeItem(g, Map.of("WriteTimestampMicros", AttributeValue.fromN("17")));
                        }
                        case "Keys" -> {
                            g.writeName("Keys");
                            DynamoJson.writeItem(g, key);
                        }
                        default -> {
                            if (random.nextBoolean()) {
                                g.writeName(member);
                                DynamoJson.writeItem(g, item(names, otherKey(names)));
                            }
                        }
                    }
                }
            } else {
                g.writeName("Item");
                DynamoJson.writeItem(g, item(names, key));
            }
            g.writeEndObject();
        }
        return new Line(out.toString(StandardCharsets.UTF_8), change ? "Keys" : "Item", names, escaped);
    }

    /** An item with the key's attributes at random places among others, some of them maps holding the key's names. */
    private Map<String, AttributeValue> item(List<String> names, Map<String, AttributeValue> key) {
        var attributes = new ArrayList<Map.Entry<String, AttributeValue>>();
        int others = random.nextInt(6);
        for (int i = 0; i < others; i++) {
            attributes.add(Map.entry("a" + i, value(0, names)));
        }
        for (var e : key.entrySet()) {
            attributes.add(random.nextInt(attributes.size() + 1), e);
        }
        var item = new LinkedHashMap<String, AttributeValue>();
        attributes.forEach(e -> item.put(e.getKey(), e.getValue()));
        return item;
    }

    private Map<String, AttributeValue> otherKey(List<String> names) {
        var key = new LinkedHashMap<String, AttributeValue>();
        names.forEach(n -> key.put(n, keyValue()));
        return key;
    }

    private AttributeValue keyValue() {
        return switch (random.nextInt(3)) {
            case 0 -> AttributeValue.fromS(text());
            case 1 -> AttributeValue.fromN(number());
            default -> {
                byte[] b = new byte[1 + random.nextInt(24)];
                random.nextBytes(b);
                yield AttributeValue.fromB(SdkBytes.fromByteArray(b));
            }
        };
    }

    private AttributeValue value(int depth, List<String> names) {
        int kind = random.nextInt(depth >= 3 ? 6 : 8);
        return switch (kind) {
            case 0 -> AttributeValue.fromS(text());
            case 1 -> AttributeValue.fromN(number());
            case 2 -> keyValue();
            case 3 -> AttributeValue.fromBool(random.nextBoolean());
            case 4 -> AttributeValue.fromNul(true);
            case 5 -> AttributeValue.fromSs(List.of(text(), text() + "!"));
            case 6 -> { // a map that holds attributes named like the key
                var map = new LinkedHashMap<String, AttributeValue>();
                for (String name : names) {
                    map.put(name, random.nextBoolean() ? keyValue() : value(depth + 1, names));
                }
                yield AttributeValue.fromM(map);
            }
            default -> {
                var list = new ArrayList<AttributeValue>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    list.add(value(depth + 1, names));
                }
                yield AttributeValue.fromL(list);
            }
        };
    }

    private String text() {
        var sb = new StringBuilder();
        for (int i = 1 + random.nextInt(8); i > 0; i--) {
            if (random.nextInt(3) == 0) {
                sb.append(TRICKY[random.nextInt(TRICKY.length)]);
            } else {
                sb.append((char) ('a' + random.nextInt(26)));
            }
        }
        return sb.toString();
    }

    private String number() {
        String digits = Long.toString(random.nextLong() % 1_000_000_000L);
        return switch (random.nextInt(4)) {
            case 0 -> digits;
            case 1 -> digits + "." + random.nextInt(1000);
            case 2 -> digits + "E" + (random.nextInt(20) - 10);
            default -> "0." + Math.abs(random.nextInt());
        };
    }
}
