package io.dynarestore.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A selective reader returns what the full reader returns for the lines its prefilter wants, and checks the file as much. */
class SelectiveReaderTest {

    private static final List<String> KEY = List.of("pk", "sk");

    /** Wants one key in ten, by the key's value. */
    private static boolean wanted(Map<String, AttributeValue> key) {
        return Math.floorMod(key.hashCode(), 10) == 0;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13})
    void returnsTheWantedLinesOfTheFullReaderAndCountsTheRestAsPassedOver(long seed) throws Exception {
        // Given a data file of 2,000 hostile lines of full-export items keyed by (pk, sk)
        List<String> lines = lines(seed, "Item", 2_000);
        byte[] file = gzip(String.join("\n", lines) + "\n");

        // When a selective reader wanting one key in ten reads it, and so does the full reader
        var selected = new ArrayList<ExportLine>();
        long lineCount;
        long passedOver;
        try (var reader = DataFileReader.selective(
                "f",
                new ByteArrayInputStream(file),
                md5(file),
                KeyPrefilter.ofItems(KEY, SelectiveReaderTest::wanted))) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                selected.add(line);
            }
            lineCount = reader.lines();
            passedOver = reader.passedOver();
        }
        var all = new ArrayList<ExportLine>();
        try (var reader = new DataFileReader("f", new ByteArrayInputStream(file), md5(file))) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                all.add(line);
            }
        }

        // Then it returned every wanted line, in order, as the full reader read it
        assertThat(selected.stream().filter(l -> wanted(key(l.item()))).toList())
                .isEqualTo(all.stream().filter(l -> wanted(key(l.item()))).toList());
        // and passed over only unwanted lines, counting every line of the file
        assertThat(lineCount).isEqualTo(2_000);
        assertThat(passedOver + selected.size()).isEqualTo(2_000);
        assertThat(passedOver).isGreaterThan(1_500);
    }

    @Test
    void readsChangeLinesByTheirKeys() throws Exception {
        List<String> lines = lines(21, "Keys", 500);
        byte[] file = gzip(String.join("\n", lines));

        var selected = new ArrayList<ExportLine>();
        try (var reader = DataFileReader.selective(
                "f", new ByteArrayInputStream(file), null, KeyPrefilter.ofChanges(KEY, SelectiveReaderTest::wanted))) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                selected.add(line);
            }
            assertThat(reader.lines()).isEqualTo(500);
        }
        var all = new ArrayList<ExportLine>();
        try (var reader = new DataFileReader("f", new ByteArrayInputStream(file), null)) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                all.add(line);
            }
        }
        assertThat(selected.stream().filter(l -> wanted(key(l.keys()))).toList())
                .isEqualTo(all.stream().filter(l -> wanted(key(l.keys()))).toList())
                .isNotEmpty();
    }

    @Test
    void checksTheWholeFilesChecksumThoughItParsedNoLine() throws Exception {
        // Given a file whose manifest states another checksum
        byte[] file = gzip(String.join("\n", lines(31, "Item", 100)));

        // When a reader that wants no line reads it to its end, Then the mismatch is refused
        assertThatThrownBy(() -> readToEnd(
                        "data/x.json.gz",
                        file,
                        md5("other".getBytes(StandardCharsets.UTF_8)),
                        KeyPrefilter.ofItems(KEY, key -> false)))
                .isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining("data/x.json.gz has MD5");
    }

    @Test
    void namesTheLineOfAWantedLineThatIsNotAnObjectOfItsOwn() throws Exception {
        byte[] file = gzip("{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}\n"
                + "{\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}}} {\"Item\":{}}\n");

        assertThatThrownBy(() -> readToEnd("data/y.json.gz", file, null, KeyPrefilter.ofItems(KEY, k -> true)))
                .isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining("data/y.json.gz line 2");
    }

    @Test
    void refusesALineLongerThanAnyBackupHolds() throws Exception {
        byte[] file = gzip("{\"Item\":{\"pk\":{\"S\":\"" + "x".repeat(LineBuffer.MAX_LINE) + "\"}}}\n");

        assertThatThrownBy(() -> readToEnd("data/z.json.gz", file, null, KeyPrefilter.ofItems(KEY, k -> true)))
                .isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining("data/z.json.gz line 1");
    }

    @Test
    void skipsTheLinesACheckpointSaysAreWrittenAndGoesOnWithTheNext() throws Exception {
        byte[] file = gzip(String.join("\n", lines(41, "Item", 50)));
        var all = new ArrayList<ExportLine>();
        try (var reader = new DataFileReader("f", new ByteArrayInputStream(file), null)) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                all.add(line);
            }
        }

        try (var reader = DataFileReader.selective(
                "f", new ByteArrayInputStream(file), null, KeyPrefilter.ofItems(KEY, k -> true))) {
            for (int i = 0; i < 30; i++) {
                assertThat(reader.skip()).isTrue();
            }
            assertThat(reader.next()).isEqualTo(all.get(30));
            assertThat(reader.lines()).isEqualTo(31);
        }
    }

    @Test
    void findsEveryNewlineOfAnyOffsetEightBytesAtATime() {
        var random = new Random(5);
        for (int n = 0; n < 2_000; n++) {
            byte[] b = new byte[random.nextInt(40)];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (random.nextInt(8) == 0 ? '\n' : random.nextInt(256));
            }
            int from = b.length == 0 ? 0 : random.nextInt(b.length);
            int expected = -1;
            for (int i = from; i < b.length; i++) {
                if (b[i] == '\n') {
                    expected = i;
                    break;
                }
            }
            assertThat(LineBuffer.newline(b, from, b.length)).isEqualTo(expected);
        }
    }

    @Test
    void findsTheEndOfEveryStringOfAnyOffsetEightBytesAtATime() {
        var random = new Random(6);
        byte[] alphabet = {'a', '"', '\\', 'x', ' ', (byte) 0xe9, '{'};
        for (int n = 0; n < 5_000; n++) {
            byte[] b = new byte[random.nextInt(40)];
            for (int i = 0; i < b.length; i++) {
                b[i] = alphabet[random.nextInt(random.nextBoolean() ? 1 : alphabet.length)];
            }
            int from = b.length == 0 ? 0 : random.nextInt(b.length);
            int expected = -1;
            for (int i = from; i < b.length; i++) {
                if (b[i] == '\\') {
                    i++;
                } else if (b[i] == '"') {
                    expected = i;
                    break;
                }
            }
            assertThat(JsonBytes.stringEnd(b, from, b.length)).isEqualTo(expected);
        }
    }

    /** Reads a file to its end through a selective reader. */
    private static void readToEnd(String name, byte[] file, String md5, KeyPrefilter prefilter) {
        try (var reader = DataFileReader.selective(name, new ByteArrayInputStream(file), md5, prefilter)) {
            while (reader.next() != null) {
                // read on
            }
        }
    }

    private static Map<String, AttributeValue> key(Map<String, AttributeValue> keyed) {
        var key = new LinkedHashMap<String, AttributeValue>();
        KEY.forEach(k -> key.put(k, keyed.get(k)));
        return key;
    }

    private static List<String> lines(long seed, String member, int count) {
        var generator = new HostileLines(seed);
        var lines = new ArrayList<String>();
        while (lines.size() < count) {
            var line = generator.next();
            if (line.member().equals(member) && line.keyNames().equals(KEY)) {
                lines.add(line.json());
            }
        }
        return lines;
    }

    static byte[] gzip(String text) throws IOException {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    static String md5(byte[] b) throws Exception {
        return Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("MD5").digest(b));
    }
}
