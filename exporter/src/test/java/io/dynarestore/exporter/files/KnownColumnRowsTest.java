package io.dynarestore.exporter.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.core.csv.CsvColumn;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class KnownColumnRowsTest {

    private static final List<CsvColumn> HEADER = List.of(
            new CsvColumn("pk", "S"),
            new CsvColumn("sk", "N"),
            new CsvColumn("a", "S"),
            new CsvColumn("a", "N"),
            new CsvColumn("b", "BOOL"),
            new CsvColumn("c", "S"));

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final CsvRowWriter csv = new CsvRowWriter(out);
    private final KnownColumnRows rows = new KnownColumnRows(HEADER, csv, n -> {});

    @Test
    void putsEachCellInItsColumnWhateverTheOrderItComesIn() {
        // Given a row whose cells come in another order than the header's, one column given twice
        rows.cell("c", "S", bytes("last"));
        rows.cell("pk", "S", bytes("p1"));
        rows.cell("a", "N", bytes("1"));
        rows.cell("a", "N", bytes("2"));

        // When the row ends, and a second row with other columns follows
        rows.endRow();
        rows.cell("sk", "N", bytes("7"));
        rows.cell("b", "BOOL", bytes("true"));
        rows.endRow();
        csv.flush();

        // Then each cell is in its column, the repeated one with its last value, and nothing of the first row
        // is left in the second
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("p1,,,2,,last\r\n,7,,,true,\r\n");
    }

    @Test
    void refusesACellOfAColumnTheHeaderLacks() {
        // Given the header above, which has "a" as S and N only
        // When a cell of "a" as a list comes
        // Then the export is told to fall back to the spool, naming the attribute and its type
        assertThatThrownBy(() -> rows.cell("a", "L", bytes("[]")))
                .isInstanceOf(KnownColumnRows.UnlistedColumn.class)
                .hasMessageContaining("attribute a of type L");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
