package io.dynarestore.exporter.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.csv.ConsoleCsv;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ConsoleCsvTest {

    static final List<String> KEYS = List.of("pk", "sk");

    static String export(List<Map<String, AttributeValue>> items) {
        var columns = new CsvColumns(KEYS);
        items.forEach(columns::observe);
        var out = new ByteArrayOutputStream();
        try (var csv = ConsoleCsv.writer(out, columns.columns())) {
            items.forEach(csv::write);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static List<Map<String, AttributeValue>> read(String csv) {
        return ConsoleCsv.readAll(csv);
    }

    static LongStream seeds() {
        return LongStream.range(0, 25);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyTypeRoundTripsThroughTheCsv(long seed) {
        // Given random items of every DynamoDB type, nested lists and maps, sets, binary, unicode
        var items = new RandomItems(seed, new RandomItems.Shape("pk", "S", "sk", "N", Map.of("g", "S"))).items(120);

        // When they are exported and the file is read back
        var back = read(export(items));

        // Then every item comes back equal (attributes that are empty strings aside: see the next test)
        var expected = items.stream().map(ConsoleCsvTest::withoutEmptyStrings).toList();
        assertThat(ItemDigests.of(back, KEYS)).isEqualTo(ItemDigests.of(expected, KEYS));
    }

    static Map<String, AttributeValue> withoutEmptyStrings(Map<String, AttributeValue> item) {
        var copy = new LinkedHashMap<>(item);
        copy.values().removeIf(v -> v.s() != null && v.s().isEmpty());
        return copy;
    }

    @Test
    void putsTheKeysFirstThenTheOtherAttributesByNameAndTypeWithTheConsolesHeaders() {
        // Given items whose attributes come in any order, one of them with two types
        var a = DynamoJson.fromJson(
                "{\"zeta\":{\"S\":\"z\"},\"sk\":{\"N\":\"1\"},\"alpha\":{\"N\":\"5\"},\"pk\":{\"S\":\"p\"}}");
        var b = DynamoJson.fromJson(
                "{\"pk\":{\"S\":\"q\"},\"sk\":{\"N\":\"2\"},\"alpha\":{\"S\":\"five\"},\"mid\":{\"BOOL\":true}}");

        // When they are exported
        String csv = export(List.of(a, b));

        // Then the header is keys first, then by name (and by type within a name)
        assertThat(csv.lines().findFirst().orElseThrow())
                .isEqualTo("pk (S),sk (N),alpha (N),alpha (S),mid (BOOL),zeta (S)");
        assertThat(csv).contains("\r\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "string             | {\"S\":\"plain\"}                           | plain",
                "number             | {\"N\":\"-12.50\"}                          | -12.50",
                "binary as base64   | {\"B\":\"AAECAw==\"}                        | AAECAw==",
                "bool               | {\"BOOL\":false}                            | false",
                "null               | {\"NULL\":true}                             | true",
                "string set         | {\"SS\":[\"a\",\"b\"]}                      | `[\"a\",\"b\"]`",
                "number set         | {\"NS\":[\"1\",\"2.5\"]}                    | `[\"1\",\"2.5\"]`",
                "list as DDB JSON   | {\"L\":[{\"S\":\"x\"},{\"N\":\"1\"}]}       | `[{\"S\":\"x\"},{\"N\":\"1\"}]`",
                "map as DDB JSON    | {\"M\":{\"k\":{\"S\":\"v\"}}}               | `{\"k\":{\"S\":\"v\"}}`",
            })
    void writesEachTypeAsTheConsoleDoes(String name, String typed, String cell) {
        AttributeValue v = DynamoJson.fromJson("{\"a\":" + typed + "}").get("a");
        assertThat(ConsoleCsv.cell(v)).isEqualTo(cell);
        assertThat(ConsoleCsv.parse(ConsoleCsv.typeOf(v), cell)).isEqualTo(v);
    }

    @Test
    void quotesWhatRfc4180NeedsAndKeepsAnEmptyStringApartFromAnAbsentAttribute() {
        var a = DynamoJson.fromJson("{\"pk\":{\"S\":\"a,\\\"b\\\"\\nc\"},\"sk\":{\"N\":\"1\"},\"note\":{\"S\":\"\"}}");
        var b = DynamoJson.fromJson("{\"pk\":{\"S\":\"d\"},\"sk\":{\"N\":\"2\"}}");
        var lines = export(List.of(a, b)).split("\r\n");
        assertThat(lines[1]).isEqualTo("\"a,\"\"b\"\"\nc\",1,\"\"");
        assertThat(lines[2]).isEqualTo("d,2,");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "a formula                  | =HYPERLINK(\"http://evil.example\",\"x\") | `'=HYPERLINK(\"http://evil.example\",\"x\")`",
                "a DDE payload              | `+cmd|' /C calc'!A0`                      | `'+cmd|' /C calc'!A0`",
                "a minus formula            | -2+3+cmd                                  | '-2+3+cmd",
                "an at formula              | @SUM(A1:A9)                               | '@SUM(A1:A9)",
                "a leading tab              | `\tX`                                      | `'\tX`",
                "a leading quote, kept      | 'quoted                                   | ''quoted",
                "a quote in the middle      | it's                                      | it's",
            })
    void guardsStringCellsThatASpreadsheetWouldRunAndReadsThemBackExactly(String name, String value, String cell) {
        // Given a string that a spreadsheet would take for a formula
        String text = value.replace("\\t", "\t");
        AttributeValue v = AttributeValue.fromS(text);

        // Then its cell starts with a quote, and reading the cell gives the string back
        assertThat(ConsoleCsv.cell(v)).isEqualTo(cell.replace("\\t", "\t"));
        assertThat(ConsoleCsv.parse("S", ConsoleCsv.cell(v))).isEqualTo(v);
    }

    @Test
    void guardsHeadersAndBinaryButLeavesNegativeNumbersNumbers() {
        // Given an attribute whose name is a formula, a binary value whose base64 starts with '+', a negative number
        var item = DynamoJson.fromJson(
                "{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"-7\"}," + "\"=1+1\":{\"S\":\"x\"},\"bin\":{\"B\":\"+/8=\"}}");

        // When it is exported and read back
        String csv = export(List.of(item));
        var lines = csv.split("\r\n");

        // Then the header and the binary cell are guarded, the number is not, and the item comes back equal
        assertThat(lines[0]).isEqualTo("pk (S),sk (N),'=1+1 (S),bin (B)");
        assertThat(lines[1]).isEqualTo("p,-7,x,'+/8=");
        assertThat(read(csv)).containsExactly(item);
    }
}
