package io.dynarestore.core.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.DynamoJsonException;
import io.dynarestore.testkit.RandomItems;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

class ConsoleCellsTest {

    /** Cells a spreadsheet would run, CSV's own characters, escapes and characters beyond the BMP. */
    private static final String[] HOSTILE = {
        "",
        "=1+1",
        "+1",
        "-1",
        "@SUM(A1)",
        "\tx",
        "\rx",
        "'quoted",
        "a,b",
        "q\"q",
        "l\nf",
        "é€😀",
        "\\",
        "\u0001",
        "#x",
        "\b\f\u007f\u2028/",
        "\u0000"
    };

    private static final JsonFactory ESCAPING =
            JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    static LongStream seeds() {
        return LongStream.range(0, 10);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyCellIsTheConsoleWritersCellOfTheParsedValueByteForByte(long seed) {
        // Given 1,000 random items of every type (10,000 over the seeds), with hostile strings among
        // them, written plainly or with every non-ASCII character escaped, numbers now and then bare
        var random = new Random(seed);
        var items = new RandomItems(seed, RandomItems.Shape.simple());
        var reader = new ConsoleCells();
        for (int i = 0; i < 1_000; i++) {
            var item = new LinkedHashMap<>(items.item(i));
            for (int h = random.nextInt(4); h > 0; h--) {
                item.put("h" + random.nextInt(5), hostile(random));
            }
            byte[] line = json(item, random.nextInt(4) == 0);
            if (random.nextInt(10) == 0) {
                line = bareNumbers(line);
            }

            // When the cells are read from the tokens
            var cells = cellsOf(reader, line);

            // Then they are the console's cells of the item the full parse reads, in its order
            var expected = new ArrayList<String>();
            DynamoJson.fromJson(new String(line, StandardCharsets.UTF_8))
                    .forEach((name, v) -> expected.add(name + "|" + ConsoleCsv.typeOf(v) + "|" + ConsoleCsv.cell(v)));
            assertThat(cells).as(new String(line, StandardCharsets.UTF_8)).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"m\":{\"M\":{\"a\":{\"S\":\"1\"},\"b\":{\"N\":\"2\"},\"a\":{\"L\":[{\"S\":\"long value\"}]}}}}",
                "{\"m\":{\"M\":{\"a\":{\"L\":[{\"S\":\"long value\"}]},\"b\":{\"N\":\"2\"},\"a\":{\"S\":\"1\"}}}}",
                "{\"m\":{\"M\":{\"a\":{\"S\":\"1\"},\"a\":{\"S\":\"2\"},\"a\":{\"S\":\"345\"},\"c\":{\"BOOL\":true}}}}",
                "{\"l\":{\"L\":[{\"M\":{\"x\":{\"M\":{\"y\":{\"N\":\"1\"},\"y\":{\"NS\":[\"1\",\"22\"]}}},"
                        + "\"z\":{\"NULL\":true},\"x\":{\"SS\":[\"q\"]}}}]}}",
                "{\"m\":{\"M\":{\"a\":{\"M\":{\"k\":{\"S\":\"v\"},\"k\":{\"S\":\"vv\"}}},\"b\":{\"B\":\"AAE=\"},"
                        + "\"a\":{\"M\":{\"k\":{\"BS\":[\"AAE=\"]}}},\"b\":{\"S\":\"\"}}}}"
            })
    void aMapThatRepeatsANameGivesTheCellOfTheParsedMapWhereTheNameKeepsItsPlaceAndTakesItsLastValue(String line) {
        // Given a line whose nested maps repeat names (no DynamoDB item does; the full parse keeps the first
        // place and the last value), When its cells are read from the tokens, Then they are the parsed item's
        var expected = new ArrayList<String>();
        DynamoJson.fromJson(line)
                .forEach((name, v) -> expected.add(name + "|" + ConsoleCsv.typeOf(v) + "|" + ConsoleCsv.cell(v)));
        var reader = new ConsoleCells();
        assertThat(cellsOf(reader, line.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
        // and the reader goes on right with the next line
        assertThat(cellsOf(reader, "{\"m\":{\"M\":{\"a\":{\"N\":\"7\"}}}}".getBytes(StandardCharsets.UTF_8)))
                .containsExactly("m|M|{\"a\":{\"N\":\"7\"}}");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"a\":{\"S\":1}}",
                "{\"a\":{\"N\":true}}",
                "{\"a\":{\"BOOL\":\"yes\"}}",
                "{\"a\":{\"NULL\":false}}",
                "{\"a\":{}}",
                "{\"a\":{\"S\":\"x\",\"N\":\"1\"}}",
                "{\"a\":{\"Q\":\"x\"}}",
                "{\"a\":{\"B\":\"not base64!\"}}",
                "{\"a\":{\"SS\":\"x\"}}",
                "{\"a\":{\"M\":{\"b\":{\"S\":2}}}}",
                "{\"a\":{\"L\":[{\"M\":{\"b\":{\"Q\":\"x\"}}}]}}",
                "{\"a\":{\"L\":[{\"N\":\"1\",\"S\":\"x\"}]}}",
                "{\"a\":{\"L\":[{}]}}",
                "{\"a\":{\"L\":[\"x\"]}}",
                "{\"a\":{\"L\":{\"S\":\"x\"}}}",
                "{\"a\":{\"M\":[]}}",
                "{\"a\":{\"M\":{\"b\":{\"BS\":[\"not base64!\"]}}}}",
                "{\"a\":{\"M\":{\"b\":{\"NULL\":false}}}}",
                "{\"a\":\"x\"}"
            })
    void refusesWhatTheFullParseRefuses(String line) {
        assertThatThrownBy(() -> DynamoJson.fromJson(line)).isInstanceOf(DynamoJsonException.class);
        assertThatThrownBy(() -> cellsOf(new ConsoleCells(), line.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DynamoJsonException.class);
    }

    @org.junit.jupiter.api.Test
    void aReaderThatRefusedALineInsideASetReadsTheNextLineRight() {
        // Given a reader that refused a set whose second element is not a string
        var reader = new ConsoleCells();
        assertThatThrownBy(() -> cellsOf(reader, "{\"a\":{\"SS\":[\"x\",1]}}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(DynamoJsonException.class);

        // When it reads a good line, Then its cells are the console's
        assertThat(cellsOf(
                        reader,
                        "{\"a\":{\"SS\":[\"y\"]},\"b\":{\"L\":[{\"N\":\"1\"}]}}".getBytes(StandardCharsets.UTF_8)))
                .containsExactly("a|SS|[\"y\"]", "b|L|[{\"N\":\"1\"}]");
    }

    private static List<String> cellsOf(ConsoleCells reader, byte[] line) {
        var cells = new ArrayList<String>();
        try (JsonParser p = DynamoJson.parser(line, 0, line.length)) {
            p.nextToken();
            reader.read(
                    p,
                    (name, type, cell) ->
                            cells.add(name + "|" + type + "|" + new String(cell, StandardCharsets.UTF_8)));
        }
        return cells;
    }

    private static AttributeValue hostile(Random random) {
        String s = HOSTILE[random.nextInt(HOSTILE.length)];
        return switch (random.nextInt(5)) {
            case 0 -> AttributeValue.fromSs(List.of(s + "x", "y", s + "\u0002"));
            case 1 -> AttributeValue.fromL(List.of(AttributeValue.fromS(s), AttributeValue.fromN("-5")));
            case 2 -> AttributeValue.fromM(Map.of("k", AttributeValue.fromS(s)));
            case 3 -> AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {(byte) 0xfb, (byte) random.nextInt()}));
            default -> AttributeValue.fromS(s);
        };
    }

    private static byte[] json(Map<String, AttributeValue> item, boolean escaped) {
        var out = new ByteArrayOutputStream();
        try (JsonGenerator g =
                escaped ? ESCAPING.createGenerator(ObjectWriteContext.empty(), out) : DynamoJson.generator(out)) {
            DynamoJson.writeItem(g, item);
        }
        return out.toByteArray();
    }

    /** The line with its top-level N values as bare JSON numbers, which the reader keeps as written. */
    private static byte[] bareNumbers(byte[] line) {
        return new String(line, StandardCharsets.UTF_8)
                .replaceAll("\\{\"N\":\"(-?[0-9]+)\"\\}", "{\"N\":$1}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
