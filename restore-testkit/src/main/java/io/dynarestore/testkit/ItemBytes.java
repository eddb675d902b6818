package io.dynarestore.testkit;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import tools.jackson.databind.JsonNode;

/**
 * The size DynamoDB bills for an item, by its documented rules, computed independently of the
 * project's own {@code ItemSize} so that the {@link CapacityProxy} checks it rather than repeats it.
 */
public final class ItemBytes {

    private ItemBytes() {}

    /** The size DynamoDB bills for an item in DynamoDB JSON: names plus values. */
    public static long size(JsonNode item) {
        long size = 0;
        for (var e : item.properties()) {
            size += utf8(e.getKey()) + valueSize(e.getValue());
        }
        return size;
    }

    private static long valueSize(JsonNode typed) {
        var e = typed.properties().iterator().next();
        String type = e.getKey();
        JsonNode v = e.getValue();
        switch (type) {
            case "S":
                return utf8(v.asString());
            case "N":
                return numberSize(v.asString());
            case "B":
                return Base64.getDecoder().decode(v.asString()).length;
            case "BOOL":
            case "NULL":
                return 1;
            case "SS": {
                long s = 0;
                for (JsonNode x : v) {
                    s += utf8(x.asString());
                }
                return s;
            }
            case "NS": {
                long s = 0;
                for (JsonNode x : v) {
                    s += numberSize(x.asString());
                }
                return s;
            }
            case "BS": {
                long s = 0;
                for (JsonNode x : v) {
                    s += Base64.getDecoder().decode(x.asString()).length;
                }
                return s;
            }
            case "L": {
                long s = 3;
                for (JsonNode x : v) {
                    s += 1 + valueSize(x);
                }
                return s;
            }
            case "M": {
                long s = 3;
                for (var m : v.properties()) {
                    s += 1 + utf8(m.getKey()) + valueSize(m.getValue());
                }
                return s;
            }
            default:
                throw new IllegalArgumentException("unknown attribute type " + type);
        }
    }

    /** About one byte per two significant digits, plus one. */
    private static long numberSize(String n) {
        String digits = n.replaceFirst("^-", "")
                .replaceFirst("[eE].*$", "")
                .replace(".", "")
                .replaceFirst("^0+", "")
                .replaceFirst("0+$", "");
        return (digits.length() + 1) / 2 + 1;
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
