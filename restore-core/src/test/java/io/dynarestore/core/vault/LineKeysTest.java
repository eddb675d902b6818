package io.dynarestore.core.vault;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.codec.DynamoJson;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The byte scan of a line's key against the full parse: on hostile random lines it finds exactly the
 * key the parse finds, and where it cannot be sure it says so instead of guessing.
 */
class LineKeysTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void findsTheKeyTheFullParseFindsOnRandomLinesOfEveryType(long seed) {
        // Given 1,000 random lines (of the 10,000 over all seeds): keys of S, N and B with escapes and
        // Unicode, key names again as nested attribute names, key attributes anywhere in the item,
        // full-export and change lines, some written with every non-ASCII character escaped
        var lines = new HostileLines(seed);
        int decided = 0;
        for (int n = 0; n < 1_000; n++) {
            HostileLines.Line line = lines.next();
            byte[] bytes = line.json().getBytes(StandardCharsets.UTF_8);

            // When the scan reads the line's key
            var scan = new LineKeys(line.member(), line.keyNames());
            Map<String, AttributeValue> key = scan.find(bytes, 0, bytes.length);

            // Then it is the key of the full parse, or undecided
            Map<String, AttributeValue> parsed = parsedKey(line, bytes);
            if (key != null) {
                decided++;
                assertThat(key).as(line.json()).isEqualTo(parsed);
                assertThat(key.keySet()).containsExactlyInAnyOrderElementsOf(line.keyNames());
            } else {
                assertThat(line.escaped())
                        .as("undecided on a line without escaped names: " + line.json())
                        .isTrue();
            }
        }
        // and it decides nearly every line (only escaped non-ASCII key names are left to the parse)
        assertThat(decided).isGreaterThanOrEqualTo(900);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void oneScannerReadsEveryLineOfAFileAsTheParseDoesWhereLinesRepeatAPartitionKey(long seed) {
        // Given lines in scan order: runs of one partition key, among them keys of the same length
        // that differ in one byte, escaped and non-ASCII ones, numbers and binary
        var random = new Random(seed);
        String[] partitions = {"p10", "p11", "p\\u00e9", "pé", "p\\\"", "1.50", "1.5"};
        String[] types = {"S", "S", "S", "S", "S", "N", "N"};
        var scan = new LineKeys("Item", List.of("pk", "sk"));
        for (int n = 0; n < 2_000; n++) {
            int p = random.nextInt(partitions.length);
            String pkType = random.nextInt(10) == 0 ? "B" : types[p];
            String pk = pkType.equals("B") ? (random.nextBoolean() ? "AAE=" : "AAI=") : partitions[p];
            for (int run = 1 + random.nextInt(5); run > 0; run--) {
                String json = "{\"Item\":{\"pk\":{\"" + pkType + "\":\"" + pk + "\"},\"sk\":{\"N\":\""
                        + random.nextInt(100) + "\"},\"a\":{\"S\":\"x\"}}}";
                byte[] bytes = json.getBytes(StandardCharsets.UTF_8);

                // When one scanner reads them one after another, asking for the partition key only on some
                var key = scan.find(bytes, 0, bytes.length);
                var parsed = DynamoJson.fromJson(json.substring(8, json.length() - 1));

                // Then every value it gives is the parse's
                assertThat(key).as(json).isNotNull();
                if (random.nextBoolean()) {
                    assertThat(key.get("pk")).as(json).isEqualTo(parsed.get("pk"));
                } else {
                    assertThat(key).as(json).isEqualTo(Map.of("pk", parsed.get("pk"), "sk", parsed.get("sk")));
                }
            }
        }
    }

    @Test
    void takesTheKeyFromTheItemsFirstLevelNotFromAMapOrListThatHoldsAnAttributeOfTheSameName() {
        // Given an item whose map and list hold "pk" before the item's own pk
        String json =
                "{\"Item\":{\"m\":{\"M\":{\"pk\":{\"S\":\"nested\"}}},\"l\":{\"L\":[{\"M\":{\"pk\":{\"S\":\"x\"}}}]},"
                        + "\"pk\":{\"S\":\"top\"}}}";

        // When its key is scanned
        var key = scan("Item", List.of("pk"), json);

        // Then it is the top-level one
        assertThat(key).isEqualTo(Map.of("pk", AttributeValue.fromS("top")));
    }

    @Test
    void readsAChangeLinesKeysAfterItsMetadataAndNeverItsImages() {
        String json = "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"1\"}},\"OldImage\":{\"pk\":{\"S\":\"old\"}},"
                + "\"Keys\":{\"pk\":{\"S\":\"k\"},\"sk\":{\"N\":\"-1.5E+3\"}},\"NewImage\":{\"pk\":{\"S\":\"k\"}}}";

        assertThat(scan("Keys", List.of("pk", "sk"), json))
                .isEqualTo(Map.of("pk", AttributeValue.fromS("k"), "sk", AttributeValue.fromN("-1.5E+3")));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "{\"Item\":{\"p\\u006b\":{\"S\":\"a\"}}}", // a name spelled with an escape
                "{\"Item\":{\"pk\":{\"N\":12}}}", // a bare JSON number
                "{\"Item\":{\"pk\":{\"BOOL\":true}}}", // not a key type
                "{\"Item\":{\"pk\":{\"S\":\"a\",\"N\":\"1\"}}}", // two type keys
                "{\"Item\":{\"other\":{\"S\":\"a\"}}}", // no key attribute
                "{\"Keys\":{\"pk\":{\"S\":\"a\"}}}", // not the member asked for
                "{\"Item\":{\"pk\":{\"B\":\"not base64!\"}}}", // binary that the parse refuses
                "{\"Item\":{\"pk\":{\"S\":\"unterminated}}}",
                "[\"Item\"]",
                ""
            })
    void leavesToTheFullParseWhatItCannotReadWithCertainty(String json) {
        assertThat(scan("Item", List.of("pk"), json)).isNull();
    }

    @Test
    void decodesEscapesUnicodeAndBase64AsTheParseDoes() {
        String json =
                "{\"Item\":{\"pk\":{\"S\":\"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00日本\"},\"sk\":{\"B\":\"AAEC/w==\"}}}";

        assertThat(scan("Item", List.of("pk", "sk"), json))
                .isEqualTo(Map.of(
                        "pk", AttributeValue.fromS("a\"b\\c\né😀日本"),
                        "sk", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, 2, (byte) 0xff}))));
    }

    private static Map<String, AttributeValue> scan(String member, List<String> names, String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return new LineKeys(member, names).find(b, 0, b.length);
    }

    private static Map<String, AttributeValue> parsedKey(HostileLines.Line line, byte[] bytes) {
        try (var reader = DataFileReader.plain("line", new ByteArrayInputStream(bytes))) {
            ExportLine parsed = reader.next();
            Map<String, AttributeValue> keyed = line.member().equals("Item") ? parsed.item() : parsed.keys();
            var key = new LinkedHashMap<String, AttributeValue>();
            line.keyNames().forEach(k -> key.put(k, keyed.get(k)));
            return key;
        }
    }
}
