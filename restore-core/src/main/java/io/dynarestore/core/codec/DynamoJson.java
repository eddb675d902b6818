package io.dynarestore.core.codec;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * DynamoDB JSON, the wire format of DynamoDB and of its S3 exports: every value is an object
 * with one type key ({@code S, N, B, BOOL, NULL, L, M, SS, NS, BS}). Numbers stay decimal
 * strings exactly as written (never parsed into binary floating point); binary is base64.
 * Streaming in both directions, so that a data file is never held whole in memory.
 */
public final class DynamoJson {

    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    // DynamoDB allows attribute names up to 64 KB and items up to 400 KB
                    .maxNameLength(65_536)
                    .maxStringLength(1_000_000)
                    .maxNestingDepth(64)
                    .build())
            // readers verify checksums after the last line, so the source must stay open
            .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
            // data files hold one object per line; the writer ends each line itself
            .rootValueSeparator((String) null)
            .build();

    private DynamoJson() {}

    public static JsonParser parser(InputStream in) {
        return FACTORY.createParser(ObjectReadContext.empty(), in);
    }

    /** A parser of {@code length} bytes of {@code bytes} from {@code offset}: one line of a data file. */
    public static JsonParser parser(byte[] bytes, int offset, int length) {
        return FACTORY.createParser(ObjectReadContext.empty(), bytes, offset, length);
    }

    public static JsonParser parser(String json) {
        return FACTORY.createParser(ObjectReadContext.empty(), json);
    }

    public static JsonGenerator generator(OutputStream out) {
        return FACTORY.createGenerator(ObjectWriteContext.empty(), out);
    }

    /** Reads an item (a map of attribute values); the parser is on its START_OBJECT. */
    public static Map<String, AttributeValue> readItem(JsonParser p) {
        expect(p, JsonToken.START_OBJECT, "an item object");
        var item = new LinkedHashMap<String, AttributeValue>();
        String name;
        while ((name = p.nextName()) != null) {
            p.nextToken();
            item.put(name, readValue(p));
        }
        expect(p, JsonToken.END_OBJECT, "the end of an item");
        return item;
    }

    /** Reads one typed value such as {@code {"S":"x"}}; the parser is on its START_OBJECT. */
    public static AttributeValue readValue(JsonParser p) {
        expect(p, JsonToken.START_OBJECT, "a typed value such as {\"S\":\"x\"}");
        String type = p.nextName();
        if (type == null) {
            throw new DynamoJsonException("empty attribute value {} at " + where(p));
        }
        AttributeValue value = readTyped(p, type, p.nextToken());
        endOfValue(p);
        return value;
    }

    /**
     * Reads the value of a typed value whose type key {@code type} was read, the parser on the
     * value's first token {@code t}; the typed value's closing brace is left to the caller
     * ({@link #endOfValue}).
     */
    public static AttributeValue readTyped(JsonParser p, String type, JsonToken t) {
        return switch (type) {
            case "S" -> AttributeValue.fromS(text(p, t, type));
            case "N" -> AttributeValue.fromN(number(p, t));
            case "B" -> AttributeValue.fromB(binary(p, t));
            case "BOOL" -> AttributeValue.fromBool(bool(p, t));
            case "NULL" -> {
                nul(p, t);
                yield AttributeValue.fromNul(true);
            }
            case "M" -> AttributeValue.fromM(readItem(p));
            case "L" -> {
                expect(p, JsonToken.START_ARRAY, "an array for L");
                var list = new ArrayList<AttributeValue>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    list.add(readValue(p));
                }
                yield AttributeValue.fromL(list);
            }
            case "SS" -> {
                var list = new ArrayList<String>();
                forEachElement(p, type, tok -> list.add(text(p, tok, type)));
                yield AttributeValue.fromSs(list);
            }
            case "NS" -> {
                var list = new ArrayList<String>();
                forEachElement(p, type, tok -> list.add(number(p, tok)));
                yield AttributeValue.fromNs(list);
            }
            case "BS" -> {
                var list = new ArrayList<SdkBytes>();
                forEachElement(p, type, tok -> list.add(binary(p, tok)));
                yield AttributeValue.fromBs(list);
            }
            default ->
                throw new DynamoJsonException("unknown attribute type '" + type + "' at " + where(p)
                        + "; expected one of S, N, B, BOOL, NULL, L, M, SS, NS, BS");
        };
    }

    /**
     * Reads the type key of a typed value, the parser on its START_OBJECT, refusing what
     * {@link #readValue} refuses there; the parser is left on the type key.
     */
    public static String typeOf(JsonParser p) {
        expect(p, JsonToken.START_OBJECT, "a typed value such as {\"S\":\"x\"}");
        String type = p.nextName();
        if (type == null) {
            throw new DynamoJsonException("empty attribute value {} at " + where(p));
        }
        return type;
    }

    /** Checks that the parser is on the START_OBJECT of an item (or of an M's map), as {@link #readItem} does. */
    public static void itemObject(JsonParser p) {
        expect(p, JsonToken.START_OBJECT, "an item object");
    }

    /** Reads the closing brace of a typed value, refusing a second type key. */
    public static void endOfValue(JsonParser p) {
        if (p.nextToken() != JsonToken.END_OBJECT) {
            throw new DynamoJsonException("a typed value has more than one type key at " + where(p));
        }
    }

    /** The text of an S value, the parser on its token {@code t}. */
    public static String string(JsonParser p, JsonToken t) {
        return text(p, t, "S");
    }

    /** The text of an element of a value of {@code type} (S, or an SS's), the parser on its token {@code t}. */
    public static String string(JsonParser p, JsonToken t, String type) {
        return text(p, t, type);
    }

    /** The bytes of a B value (or a BS's element), from its base64. */
    public static byte[] bytes(JsonParser p, JsonToken t) {
        return binary(p, t).asByteArrayUnsafe();
    }

    /** Checks that the parser is on the START_ARRAY of a value of {@code type} (SS, NS, BS or L). */
    public static void arrayOf(JsonParser p, String type) {
        expect(p, JsonToken.START_ARRAY, "an array for " + type);
    }

    /** The text of an N value (a decimal string, or a bare JSON number kept as written). */
    public static String number(JsonParser p, JsonToken t) {
        // Native exports write numbers as strings; accept a bare JSON number too, keeping its text.
        if (t != JsonToken.VALUE_STRING && t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
            throw new DynamoJsonException("N values must be decimal strings at " + where(p));
        }
        return p.getString();
    }

    /** A BOOL value. */
    public static boolean bool(JsonParser p, JsonToken t) {
        if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
            throw new DynamoJsonException("BOOL must be true or false at " + where(p));
        }
        return t == JsonToken.VALUE_TRUE;
    }

    /** Checks a NULL value, which is always {@code true}. */
    public static void nul(JsonParser p, JsonToken t) {
        if (t != JsonToken.VALUE_TRUE) {
            throw new DynamoJsonException("NULL must be true at " + where(p));
        }
    }

    private interface TokenConsumer {
        void accept(JsonToken token);
    }

    private static void forEachElement(JsonParser p, String type, TokenConsumer each) {
        expect(p, JsonToken.START_ARRAY, "an array for " + type);
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            each.accept(t);
        }
    }

    private static String text(JsonParser p, JsonToken t, String type) {
        if (t != JsonToken.VALUE_STRING) {
            throw new DynamoJsonException(type + " values must be strings at " + where(p));
        }
        return p.getString();
    }

    private static SdkBytes binary(JsonParser p, JsonToken t) {
        if (t != JsonToken.VALUE_STRING) {
            throw new DynamoJsonException("B values must be base64 strings at " + where(p));
        }
        try {
            return SdkBytes.fromByteArrayUnsafe(p.getBinaryValue());
        } catch (RuntimeException e) {
            throw new DynamoJsonException("B value is not base64 at " + where(p), e);
        }
    }

    private static void expect(JsonParser p, JsonToken expected, String what) {
        if (p.currentToken() != expected) {
            throw new DynamoJsonException("expected " + what + " but found " + p.currentToken() + " at " + where(p));
        }
    }

    static String where(JsonParser p) {
        var loc = p.currentLocation();
        return "line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    /** Writes an item as a DynamoDB JSON object. */
    public static void writeItem(JsonGenerator g, Map<String, AttributeValue> item) {
        g.writeStartObject();
        for (var e : item.entrySet()) {
            g.writeName(e.getKey());
            writeValue(g, e.getValue());
        }
        g.writeEndObject();
    }

    /**
     * Writes an item as a DynamoDB JSON object with the attributes named in {@code first} first (those
     * it has, in that order), then the others in the item's order.
     */
    public static void writeItem(JsonGenerator g, Map<String, AttributeValue> item, List<String> first) {
        if (first.isEmpty()) {
            writeItem(g, item);
            return;
        }
        g.writeStartObject();
        for (String name : first) {
            AttributeValue v = item.get(name);
            if (v != null) {
                g.writeName(name);
                writeValue(g, v);
            }
        }
        for (var e : item.entrySet()) {
            if (!first.contains(e.getKey())) {
                g.writeName(e.getKey());
                writeValue(g, e.getValue());
            }
        }
        g.writeEndObject();
    }

    public static void writeValue(JsonGenerator g, AttributeValue v) {
        g.writeStartObject();
        switch (v.type()) {
            case S -> g.writeName("S").writeString(v.s());
            case N -> g.writeName("N").writeString(v.n());
            case B -> g.writeName("B").writeBinary(v.b().asByteArrayUnsafe());
            case BOOL -> g.writeName("BOOL").writeBoolean(v.bool());
            case NUL -> g.writeName("NULL").writeBoolean(true);
            case M -> {
                g.writeName("M");
                writeItem(g, v.m());
            }
            case L -> {
                g.writeName("L").writeStartArray();
                for (AttributeValue e : v.l()) {
                    writeValue(g, e);
                }
                g.writeEndArray();
            }
            case SS -> {
                g.writeName("SS").writeStartArray();
                for (String s : v.ss()) {
                    g.writeString(s);
                }
                g.writeEndArray();
            }
            case NS -> {
                g.writeName("NS").writeStartArray();
                for (String s : v.ns()) {
                    g.writeString(s);
                }
                g.writeEndArray();
            }
            case BS -> {
                g.writeName("BS").writeStartArray();
                for (SdkBytes b : v.bs()) {
                    g.writeBinary(b.asByteArrayUnsafe());
                }
                g.writeEndArray();
            }
            default -> throw new DynamoJsonException("cannot write an attribute value of unknown type: " + v);
        }
        g.writeEndObject();
    }

    /** An item as a DynamoDB JSON string. */
    public static String toJson(Map<String, AttributeValue> item) {
        var out = new ByteArrayOutputStream();
        try (JsonGenerator g = generator(out)) {
            writeItem(g, item);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** An item from a DynamoDB JSON string. */
    public static Map<String, AttributeValue> fromJson(String json) {
        try (JsonParser p = parser(json)) {
            p.nextToken();
            return readItem(p);
        }
    }

    /** Reads a list of items; used for small documents only. */
    public static List<Map<String, AttributeValue>> readItems(JsonParser p) {
        expect(p, JsonToken.START_ARRAY, "an array of items");
        var items = new ArrayList<Map<String, AttributeValue>>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            items.add(readItem(p));
        }
        return items;
    }
}
