package io.dynarestore.exporter.files;

import static org.assertj.core.api.Assertions.assertThat;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.QuoteStrategies;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CsvRowWriterTest {

    private static final String ALPHABET = "ab,\"\r\n#' é€😀\t=";

    static LongStream seeds() {
        return LongStream.range(0, 20);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void writesTheBytesFastCsvWritesForEveryRecord(long seed) {
        // Given 500 random records of 0 to 6 cells: absent, empty, and strings of commas, quotes, CR, LF,
        // '#', quotes of formulas and multi-byte characters
        var random = new Random(seed);
        var records = new ArrayList<String[]>();
        for (int r = 0; r < 500; r++) {
            var cells = new String[random.nextInt(7)];
            for (int c = 0; c < cells.length; c++) {
                cells[c] = random.nextInt(6) == 0 ? null : text(random);
            }
            records.add(cells);
        }

        // When both write them
        var ours = new ByteArrayOutputStream();
        var rows = new CsvRowWriter(ours);
        records.forEach(rows::write);
        rows.flush();
        var theirs = new ByteArrayOutputStream();
        try (var csv = CsvWriter.builder().quoteStrategy(QuoteStrategies.EMPTY).build(theirs, StandardCharsets.UTF_8)) {
            for (String[] cells : records) {
                csv.writeRecord(Arrays.asList(cells));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        // Then the bytes are the same
        assertThat(new String(ours.toByteArray(), StandardCharsets.UTF_8))
                .isEqualTo(new String(theirs.toByteArray(), StandardCharsets.UTF_8));
        assertThat(ours.toByteArray()).isEqualTo(theirs.toByteArray());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void writesASparseRecordFromItsPresentCellsAsTheWholeRecordIsWritten(long seed) {
        // Given 500 random records of 0 to 40 columns, most of them absent, the first and last sometimes present
        var random = new Random(seed);
        var whole = new ByteArrayOutputStream();
        var sparse = new ByteArrayOutputStream();
        var wholeRows = new CsvRowWriter(whole);
        var sparseRows = new CsvRowWriter(sparse);
        for (int r = 0; r < 500; r++) {
            int count = random.nextInt(41);
            var cells = new byte[count][];
            var lengths = new int[count];
            var columns = new int[count];
            int present = 0;
            for (int c = 0; c < count; c++) {
                if (random.nextInt(4) == 0) {
                    cells[c] = text(random).getBytes(StandardCharsets.UTF_8);
                    lengths[c] = cells[c].length;
                    columns[present++] = c;
                }
            }

            // When one writer writes every slot and the other only the present columns
            wholeRows.write(cells, lengths, count);
            sparseRows.writeSparse(cells, lengths, columns, present, count);
        }
        wholeRows.flush();
        sparseRows.flush();

        // Then the bytes are the same
        assertThat(new String(sparse.toByteArray(), StandardCharsets.UTF_8))
                .isEqualTo(new String(whole.toByteArray(), StandardCharsets.UTF_8));
    }

    @Test
    void writesMoreAbsentColumnsThanOneRunOfSeparatorsHolds() {
        // Given a record of 2,500 columns with only the last present
        var cells = new byte[2_500][];
        var lengths = new int[2_500];
        cells[2_499] = "x".getBytes(StandardCharsets.UTF_8);
        lengths[2_499] = 1;
        var out = new ByteArrayOutputStream();
        var rows = new CsvRowWriter(out);

        // When it is written from its present cell
        rows.writeSparse(cells, lengths, new int[] {2_499}, 1, 2_500);
        rows.flush();

        // Then it is 2,499 separators, the cell and the record's end
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(",".repeat(2_499) + "x\r\n");
    }

    private static String text(Random random) {
        int[] points = ALPHABET.codePoints().toArray();
        var s = new StringBuilder();
        for (int i = random.nextInt(8); i > 0; i--) {
            s.appendCodePoint(points[random.nextInt(points.length)]);
        }
        return s.toString();
    }
}
