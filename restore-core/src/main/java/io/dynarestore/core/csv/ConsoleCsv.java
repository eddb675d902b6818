package io.dynarestore.core.csv;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.QuoteStrategies;
import io.dynarestore.core.codec.DynamoJson;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * Items as the DynamoDB console writes them to CSV (RFC 4180, CRLF, UTF-8): a header of
 * {@code name (TYPE)} cells, then one row per item. A cell holds S and N as their text, B as
 * base64, BOOL as {@code true}/{@code false}, NULL as {@code true}, and sets, lists and maps as
 * their DynamoDB JSON ({@code ["a","b"]}, {@code [{"S":"x"},{"N":"1"}]}, {@code {"k":{"S":"v"}}}).
 * An absent attribute is an empty, unquoted cell; an empty string is {@code ""}, so the two stay
 * apart. A cell or header that a spreadsheet would run as a formula starts with a {@code '}
 * ({@link FormulaGuard}). {@link #parse} reads a cell back exactly, so a file can be loaded
 * elsewhere without loss.
 */
public final class ConsoleCsv implements Closeable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final CsvWriter csv;
    private final List<CsvColumn> columns;
    private long rows;

    private ConsoleCsv(OutputStream out, List<CsvColumn> columns) {
        this.csv = CsvWriter.builder().quoteStrategy(QuoteStrategies.EMPTY).build(out, StandardCharsets.UTF_8);
        this.columns = List.copyOf(columns);
        csv.writeRecord(columns.stream().map(CsvColumn::header).toList());
    }

    /** A writer that has written the header of {@code columns}. */
    public static ConsoleCsv writer(OutputStream out, List<CsvColumn> columns) {
        return new ConsoleCsv(out, columns);
    }

    public void write(Map<String, AttributeValue> item) {
        var cells = new ArrayList<String>(columns.size());
        for (CsvColumn c : columns) {
            AttributeValue v = item.get(c.name());
            cells.add(v == null || !typeOf(v).equals(c.type()) ? null : cell(v));
        }
        csv.writeRecord(cells);
        rows++;
    }

    public long rows() {
        return rows;
    }

    @Override
    public void close() {
        try {
            csv.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The DynamoDB type name of a value: S, N, B, BOOL, NULL, SS, NS, BS, L or M. */
    public static String typeOf(AttributeValue v) {
        return switch (v.type()) {
            case S -> "S";
            case N -> "N";
            case B -> "B";
            case BOOL -> "BOOL";
            case NUL -> "NULL";
            case SS -> "SS";
            case NS -> "NS";
            case BS -> "BS";
            case L -> "L";
            case M -> "M";
            default -> throw new IllegalArgumentException("an attribute value of unknown type: " + v);
        };
    }

    /** The text of a value in its cell, guarded against running as a formula. */
    public static String cell(AttributeValue v) {
        return v.type() == AttributeValue.Type.N ? v.n() : FormulaGuard.guard(text(v));
    }

    private static String text(AttributeValue v) {
        return switch (v.type()) {
            case S -> v.s();
            case N -> v.n();
            case B -> Base64.getEncoder().encodeToString(v.b().asByteArrayUnsafe());
            case BOOL -> v.bool().toString();
            case NUL -> "true";
            case SS -> JSON.writeValueAsString(v.ss());
            case NS -> JSON.writeValueAsString(v.ns());
            case BS ->
                JSON.writeValueAsString(v.bs().stream()
                        .map(b -> Base64.getEncoder().encodeToString(b.asByteArrayUnsafe()))
                        .toList());
            case L -> list(v.l());
            case M -> DynamoJson.toJson(v.m());
            default -> throw new IllegalArgumentException("an attribute value of unknown type: " + v);
        };
    }

    private static String list(List<AttributeValue> values) {
        var out = new ByteArrayOutputStream();
        try (var g = DynamoJson.generator(out)) {
            g.writeStartArray();
            for (AttributeValue v : values) {
                DynamoJson.writeValue(g, v);
            }
            g.writeEndArray();
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The value a cell of a column of {@code type} holds: the inverse of {@link #cell}. */
    public static AttributeValue parse(String type, String written) {
        String cell = "N".equals(type) ? written : FormulaGuard.unguard(written);
        switch (type) {
            case "S":
                return AttributeValue.fromS(cell);
            case "N":
                return AttributeValue.fromN(cell);
            case "B":
                return AttributeValue.fromB(
                        SdkBytes.fromByteArray(Base64.getDecoder().decode(cell)));
            case "BOOL":
                return AttributeValue.fromBool(Boolean.parseBoolean(cell));
            case "NULL":
                return AttributeValue.fromNul(true);
            case "SS":
                return AttributeValue.fromSs(strings(cell));
            case "NS":
                return AttributeValue.fromNs(strings(cell));
            case "BS":
                return AttributeValue.fromBs(strings(cell).stream()
                        .map(s -> SdkBytes.fromByteArray(Base64.getDecoder().decode(s)))
                        .toList());
            case "L": {
                var values = new ArrayList<AttributeValue>();
                try (var p = DynamoJson.parser(cell)) {
                    if (p.nextToken() != JsonToken.START_ARRAY) {
                        throw new IllegalArgumentException("an L cell must be a JSON array: " + cell);
                    }
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        values.add(DynamoJson.readValue(p));
                    }
                }
                return AttributeValue.fromL(values);
            }
            case "M":
                return AttributeValue.fromM(DynamoJson.fromJson(cell));
            default:
                throw new IllegalArgumentException("unknown column type " + type);
        }
    }

    /**
     * The items of a whole file written by this class (for checks and small files: it holds them
     * all). Empty cells are absent attributes, so an empty string reads back as absent here.
     */
    public static List<Map<String, AttributeValue>> readAll(String csv) {
        var rows = new ArrayList<Map<String, AttributeValue>>();
        List<CsvColumn> columns = null;
        for (var record : de.siegmar.fastcsv.reader.CsvReader.builder().ofCsvRecord(csv)) {
            if (columns == null) {
                columns = record.getFields().stream().map(CsvColumn::ofHeader).toList();
                continue;
            }
            var item = new LinkedHashMap<String, AttributeValue>();
            for (int i = 0; i < columns.size(); i++) {
                String cell = record.getField(i);
                if (!cell.isEmpty()) {
                    item.put(columns.get(i).name(), parse(columns.get(i).type(), cell));
                }
            }
            rows.add(item);
        }
        return rows;
    }

    private static List<String> strings(String cell) {
        return List.of(JSON.readValue(cell, String[].class));
    }
}
