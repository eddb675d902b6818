package io.dynarestore.core.csv;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.DynamoJsonException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * The console cells of items read straight from their DynamoDB JSON tokens, without building the
 * items: for each attribute its name, its type and the bytes {@link ConsoleCsv} writes in its cell.
 *
 * <p>Rule: a cell is byte for byte {@code ConsoleCsv.cell} of the value the full parse reads
 * ({@link DynamoJson#readValue}), and what the full parse refuses is refused here with the same
 * {@link DynamoJsonException}. S, N, BOOL, NULL and the sets are turned into cells from their
 * tokens; B, L and M are read as values. The JSON cells (sets, lists, maps) are written by one
 * generator kept for all of them, rather than one made per cell. A line that names an attribute
 * twice (no DynamoDB item does) gives a cell for each: the later one wins where both have one
 * type, as it does in the full parse. Not thread-safe: one per export.
 */
public final class ConsoleCells {

    /** Where the cells of an item go, in the item's order. */
    public interface Sink {
        void cell(String name, String type, byte[] cell);
    }

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    /** What the generator wrote for the cell at hand; emptied after each. */
    private final Scratch scratch = new Scratch();

    /** Made again after a refused value, which may have left it inside an array. */
    private JsonGenerator json = DynamoJson.generator(scratch);

    /** Reads one item object, the parser on its START_OBJECT, and gives {@code sink} each attribute's cell. */
    public void read(JsonParser p, Sink sink) {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new DynamoJsonException("expected an item object but found " + p.currentToken());
        }
        String name;
        while ((name = p.nextName()) != null) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new DynamoJsonException("expected a typed value such as {\"S\":\"x\"} but found "
                        + p.currentToken() + " for attribute " + name);
            }
            String type = p.nextName();
            if (type == null) {
                throw new DynamoJsonException("empty attribute value {} for attribute " + name);
            }
            JsonToken t = p.nextToken();
            byte[] cell;
            try {
                cell = cell(p, type, t);
            } catch (RuntimeException e) {
                scratch.reset();
                json = DynamoJson.generator(scratch);
                throw e;
            }
            DynamoJson.endOfValue(p);
            sink.cell(name, type, cell);
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new DynamoJsonException("expected the end of an item but found " + p.currentToken());
        }
    }

    private byte[] cell(JsonParser p, String type, JsonToken t) {
        return switch (type) {
            case "S" -> utf8(FormulaGuard.guard(DynamoJson.string(p, t)));
            case "N" -> utf8(DynamoJson.number(p, t));
            case "BOOL" -> DynamoJson.bool(p, t) ? TRUE : FALSE;
            case "NULL" -> {
                DynamoJson.nul(p, t);
                yield TRUE;
            }
            case "SS", "NS", "BS" -> set(p, type);
            case "L" -> list(DynamoJson.readTyped(p, type, t).l());
            case "M" -> {
                DynamoJson.writeItem(json, DynamoJson.readTyped(p, type, t).m());
                yield written();
            }
            default -> utf8(ConsoleCsv.cell(DynamoJson.readTyped(p, type, t)));
        };
    }

    /** A set as the console writes it: a JSON array of its strings (a BS's as base64). */
    private byte[] set(JsonParser p, String type) {
        DynamoJson.arrayOf(p, type);
        json.writeStartArray();
        for (JsonToken t; (t = p.nextToken()) != JsonToken.END_ARRAY; ) {
            json.writeString(
                    switch (type) {
                        case "SS" -> DynamoJson.string(p, t, type);
                        case "NS" -> DynamoJson.number(p, t);
                        default -> Base64.getEncoder().encodeToString(DynamoJson.bytes(p, t));
                    });
        }
        json.writeEndArray();
        return written();
    }

    /** A list as the console writes it: a JSON array of its typed values. */
    private byte[] list(List<AttributeValue> values) {
        json.writeStartArray();
        for (AttributeValue v : values) {
            DynamoJson.writeValue(json, v);
        }
        json.writeEndArray();
        return written();
    }

    /** What the generator wrote since the last cell (a JSON cell never needs the formula guard: it starts with [ or {). */
    private byte[] written() {
        json.flush();
        return scratch.take();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A buffer whose bytes are taken, and which is emptied, once per cell. */
    private static final class Scratch extends ByteArrayOutputStream {
        byte[] take() {
            byte[] bytes = Arrays.copyOf(buf, count);
            reset();
            return bytes;
        }
    }
}
