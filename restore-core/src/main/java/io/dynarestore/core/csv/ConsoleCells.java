package io.dynarestore.core.csv;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.DynamoJsonException;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * The console cells of an item read straight from its DynamoDB JSON tokens, without building the
 * item: for each attribute its name, its type and the bytes {@link ConsoleCsv} writes in its cell.
 *
 * <p>Rule: a cell is byte for byte {@code ConsoleCsv.cell} of the value the full parse reads
 * ({@link DynamoJson#readValue}), and what the full parse refuses is refused here with the same
 * {@link DynamoJsonException}. S, N, BOOL and NULL, the bulk of most tables, are turned into cells
 * from their tokens; the other types are read as values and formatted as before.
 */
public final class ConsoleCells {

    /** Where the cells of an item go, in the item's order. */
    public interface Sink {
        void cell(String name, String type, byte[] cell);
    }

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    private ConsoleCells() {}

    /** Reads one item object, the parser on its START_OBJECT, and gives {@code sink} each attribute's cell. */
    public static void read(JsonParser p, Sink sink) {
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
            byte[] cell = switch (type) {
                case "S" -> utf8(FormulaGuard.guard(DynamoJson.string(p, t)));
                case "N" -> utf8(DynamoJson.number(p, t));
                case "BOOL" -> DynamoJson.bool(p, t) ? TRUE : FALSE;
                case "NULL" -> {
                    DynamoJson.nul(p, t);
                    yield TRUE;
                }
                default -> utf8(ConsoleCsv.cell(DynamoJson.readTyped(p, type, t)));
            };
            DynamoJson.endOfValue(p);
            sink.cell(name, type, cell);
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new DynamoJsonException("expected the end of an item but found " + p.currentToken());
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
