package io.dynarestore.core.csv;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.DynamoJsonException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * The console cells of items read straight from their DynamoDB JSON tokens, without building the
 * items: for each attribute its name, its type and the bytes {@link ConsoleCsv} writes in its cell.
 *
 * <p>Rule: a cell is byte for byte {@code ConsoleCsv.cell} of the value the full parse reads
 * ({@link DynamoJson#readValue}), and what the full parse refuses is refused here with the same
 * {@link DynamoJsonException}. Every type but B is turned into its cell from its tokens (lists and
 * maps copied token by token at every depth, building no value); B is read as a value. The JSON
 * cells (sets, lists, maps) are written by one generator kept for all of them, rather than one
 * made per cell. A line that names an attribute
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

    /** Per depth, the names of the map being written there and where each one's value lies in the cell. */
    private final List<Map<String, int[]>> mapEntries = new ArrayList<>();

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
            case "SS", "NS", "BS" -> {
                copySet(p, type);
                yield written();
            }
            case "L" -> {
                DynamoJson.arrayOf(p, type);
                copyElements(p, 0);
                yield written();
            }
            case "M" -> {
                copyMap(p, 0);
                yield written();
            }
            default -> utf8(ConsoleCsv.cell(DynamoJson.readTyped(p, type, t)));
        };
    }

    /**
     * Writes a set, the parser on its START_ARRAY, as the console writes a set cell and
     * {@code DynamoJson.writeValue} a nested set: a JSON array of its strings (a BS's as base64).
     */
    private void copySet(JsonParser p, String type) {
        DynamoJson.arrayOf(p, type);
        json.writeStartArray();
        for (JsonToken t; (t = p.nextToken()) != JsonToken.END_ARRAY; ) {
            switch (type) {
                case "SS" -> json.writeString(DynamoJson.string(p, t, type));
                case "NS" -> json.writeString(DynamoJson.number(p, t));
                default -> json.writeBinary(DynamoJson.bytes(p, t));
            }
        }
        json.writeEndArray();
    }

    /**
     * Writes the elements of an L, the parser on its START_ARRAY, as {@code DynamoJson.writeValue} writes
     * each parsed element: a JSON array of typed values.
     */
    private void copyElements(JsonParser p, int depth) {
        json.writeStartArray();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            copyValue(p, depth + 1);
        }
        json.writeEndArray();
    }

    /**
     * Writes a typed value, the parser on its START_OBJECT, as {@code DynamoJson.writeValue} writes what
     * {@code DynamoJson.readValue} reads, without building it.
     */
    private void copyValue(JsonParser p, int depth) {
        String type = DynamoJson.typeOf(p);
        JsonToken t = p.nextToken();
        json.writeStartObject();
        switch (type) {
            case "S" -> json.writeName("S").writeString(DynamoJson.string(p, t));
            case "N" -> json.writeName("N").writeString(DynamoJson.number(p, t));
            case "B" -> json.writeName("B").writeBinary(DynamoJson.bytes(p, t));
            case "BOOL" -> json.writeName("BOOL").writeBoolean(DynamoJson.bool(p, t));
            case "NULL" -> {
                DynamoJson.nul(p, t);
                json.writeName("NULL").writeBoolean(true);
            }
            case "M" -> {
                json.writeName("M");
                copyMap(p, depth + 1);
            }
            case "L" -> {
                DynamoJson.arrayOf(p, type);
                json.writeName("L");
                copyElements(p, depth);
            }
            case "SS", "NS", "BS" -> {
                json.writeName(type);
                copySet(p, type);
            }
            default -> DynamoJson.readTyped(p, type, t); // refuses the unknown type as the full parse does
        }
        json.writeEndObject();
        DynamoJson.endOfValue(p);
    }

    /**
     * Writes a map, the parser on its START_OBJECT, as {@code DynamoJson.writeItem} writes what
     * {@code DynamoJson.readItem} reads. A name the map repeats (no DynamoDB item does) keeps the place of
     * its first value and takes its last, as in the parsed map: its later value's bytes replace the
     * earlier ones where they lie in the cell, and the repeated entry is cut off the end.
     */
    private void copyMap(JsonParser p, int depth) {
        DynamoJson.itemObject(p);
        Map<String, int[]> entries = entriesAt(depth);
        json.writeStartObject();
        String name;
        while ((name = p.nextName()) != null) {
            p.nextToken();
            int entryStart = position();
            json.writeName(name);
            int valueStart = position();
            copyValue(p, depth);
            int valueEnd = position();
            int[] earlier = entries.get(name);
            if (earlier == null) {
                entries.put(name, new int[] {valueStart, valueEnd});
            } else {
                json.flush();
                int shift = scratch.replace(earlier[0], earlier[1], valueStart, valueEnd, entryStart);
                for (int[] other : entries.values()) {
                    if (other[0] > earlier[0]) {
                        other[0] += shift;
                        other[1] += shift;
                    }
                }
                earlier[1] += shift;
            }
        }
        json.writeEndObject();
        entries.clear();
    }

    /** How many bytes of the cell the generator has written, flushed or not. */
    private int position() {
        return scratch.size() + json.streamWriteOutputBuffered();
    }

    /** The entries of the map being written at {@code depth}, emptied: maps at one depth never overlap. */
    private Map<String, int[]> entriesAt(int depth) {
        while (mapEntries.size() <= depth) {
            mapEntries.add(new HashMap<>());
        }
        Map<String, int[]> entries = mapEntries.get(depth);
        entries.clear();
        return entries;
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

        /**
         * Puts the bytes at {@code [from, to)} where {@code [at, end)} are and cuts the buffer at
         * {@code cut} (at or before {@code from}); returns how far what followed {@code end} moved.
         */
        int replace(int at, int end, int from, int to, int cut) {
            byte[] value = Arrays.copyOfRange(buf, from, to);
            int shift = value.length - (end - at);
            System.arraycopy(buf, end, buf, end + shift, cut - end);
            System.arraycopy(value, 0, buf, at, value.length);
            count = cut + shift;
            return shift;
        }
    }
}
