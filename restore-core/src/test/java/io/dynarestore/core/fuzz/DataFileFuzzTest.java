package io.dynarestore.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.vault.CorruptDataFileException;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.testkit.Mutations;
import io.dynarestore.testkit.RandomItems;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Backup data files damaged every way we could think of (truncated gzip, flipped bytes, bad JSON
 * lines, junk, a wrong checksum, a line far bigger than any DynamoDB item): 3,000 seeded cases.
 * Reading one either yields lines or stops with CorruptDataFileException naming the file; no
 * other exception, and no endless read.
 */
class DataFileFuzzTest {

    static IntStream cases() {
        return IntStream.range(0, 3_000);
    }

    static byte[] lines(int seed, int count) {
        var text = new StringBuilder();
        for (var item : new RandomItems(seed, RandomItems.Shape.simple()).items(count)) {
            text.append("{\"Item\":").append(DynamoJson.toJson(item)).append("}\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] gzip(byte[] plain) throws IOException {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        }
        return out.toByteArray();
    }

    static String md5(byte[] b) throws Exception {
        return Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("MD5").digest(b));
    }

    /** A data file damaged one way, and the checksum its manifest states. */
    record Damaged(byte[] file, String checksum) {}

    static Damaged damaged(int seed) throws Exception {
        var mutations = new Mutations(seed);
        byte[] plain = lines(seed, 5 + seed % 20);
        byte[] file;
        String checksum;
        switch (seed % 5) {
            case 0 -> { // the compressed bytes damaged, the manifest's checksum of the good file
                byte[] good = gzip(plain);
                checksum = md5(good);
                file = mutations.bytes(good);
            }
            case 1 -> { // lines damaged before compression, checksum of what is stored
                file = gzip(mutations
                        .json(new String(plain, StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8));
                checksum = md5(file);
            }
            case 2 -> { // a line of 1.1 MB, far beyond a 400 KB item
                String huge = "{\"Item\":{\"pk\":{\"S\":\"" + "x".repeat(1_100_000) + "\"},\"sk\":{\"N\":\"1\"}}}\n";
                file = gzip((new String(plain, StandardCharsets.UTF_8) + huge).getBytes(StandardCharsets.UTF_8));
                checksum = md5(file);
            }
            case 3 -> { // a good file under a wrong checksum
                file = gzip(plain);
                checksum = md5(mutations.bytes(file));
            }
            default -> { // not gzip at all
                file = mutations.bytes(plain);
                checksum = null;
            }
        }

        return new Damaged(file, checksum);
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void readsADamagedDataFileToItsEndOrStopsWithCorruptDataFile(int seed) throws Exception {
        // Given a data file damaged one way
        Damaged damaged = damaged(seed);

        // When it is read to its end
        long lines = 0;
        try (var reader = new DataFileReader(
                "data/file-" + seed + ".json.gz", new ByteArrayInputStream(damaged.file()), damaged.checksum())) {
            while (reader.next() != null) {
                lines++;
                if (lines > 10_000) {
                    fail("endless read of a file of at most 25 lines");
                }
            }
        } catch (CorruptDataFileException e) {
            // Then a damaged file is refused, naming itself
            assertThat(e.getMessage()).contains("file-" + seed);
            return;
        }
        // or it was read whole (a damage that left it valid)
        assertThat(lines).isLessThanOrEqualTo(26);
    }

    static IntStream selectiveCases() {
        return IntStream.range(0, 500);
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("selectiveCases")
    void aSelectiveReaderOfADamagedDataFileReadsToItsEndOrStopsWithCorruptDataFile(int seed) throws Exception {
        // Given a data file damaged one way, and a reader that parses only the lines of one key in three
        Damaged damaged = damaged(seed);
        var prefilter = KeyPrefilter.ofItems(List.of("pk"), key -> Math.floorMod(key.hashCode(), 3) == 0);

        // When it is read to its end
        long lines = 0;
        try (var reader = DataFileReader.selective(
                "data/file-" + seed + ".json.gz",
                new ByteArrayInputStream(damaged.file()),
                damaged.checksum(),
                prefilter)) {
            while (reader.next() != null) {
                if (++lines > 10_000) {
                    fail("endless read of a file of at most 25 lines");
                }
            }
            assertThat(reader.lines()).isLessThanOrEqualTo(26);
        } catch (CorruptDataFileException e) {
            // Then a damaged file is refused, naming itself
            assertThat(e.getMessage()).contains("file-" + seed);
        }
    }
}
