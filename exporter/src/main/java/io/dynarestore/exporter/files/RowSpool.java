package io.dynarestore.exporter.files;

import io.dynarestore.core.csv.ConsoleCells;
import io.dynarestore.core.csv.ConsoleCsv;
import io.dynarestore.core.csv.CsvColumn;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The rows of an export while its columns are still being found, on local disk, so that the backup
 * is read once and memory stays flat (the disk holds about the CSV's size; compressing it cost more
 * time than the second read of the backup it replaces, docs/benchmarks.md): each row is kept as its cells, already
 * formatted, each with the number of its column in the order the columns were first seen, and a
 * row ends with {@link #END}. A row comes as an item ({@link #add}) or cell by cell, straight from
 * the data file's tokens ({@link #cell}, then {@link #endRow}). Once every row is in,
 * {@link #replay} gives them back in the final column order. The file is deleted on close.
 */
final class RowSpool implements AutoCloseable, ConsoleCells.Sink {

    /** The column number that ends a row. */
    private static final int END = -1;

    private final Path file;
    private final DataOutputStream out;
    /** Column numbers by name, then type: most names have one type, and neither string is copied. */
    private final Map<String, Map<String, Integer>> numbers = new HashMap<>();

    private final List<CsvColumn> seen = new ArrayList<>();
    private long rows;

    private RowSpool(Path file) throws IOException {
        this.file = file;
        this.out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
    }

    static RowSpool create() {
        try {
            return new RowSpool(Files.createTempFile("export-rows-", ".bin"));
        } catch (IOException e) {
            throw new UncheckedIOException("no room for an export's rows on local disk", e);
        }
    }

    /** Keeps an item as a row: its attributes' cells, by column. */
    void add(Map<String, AttributeValue> item) {
        for (var e : item.entrySet()) {
            cell(
                    e.getKey(),
                    ConsoleCsv.typeOf(e.getValue()),
                    ConsoleCsv.cell(e.getValue()).getBytes(StandardCharsets.UTF_8));
        }
        endRow();
    }

    /** Keeps one cell of the row being read. */
    @Override
    public void cell(String name, String type, byte[] cell) {
        var byType = numbers.computeIfAbsent(name, n -> new HashMap<>(2));
        Integer number = byType.get(type);
        if (number == null) {
            number = seen.size();
            byType.put(type, number);
            seen.add(new CsvColumn(name, type));
        }
        try {
            out.writeInt(number);
            out.writeInt(cell.length);
            out.write(cell);
        } catch (IOException e) {
            throw new UncheckedIOException("no room for an export's rows on local disk", e);
        }
    }

    /** Ends the row being read. */
    void endRow() {
        try {
            out.writeInt(END);
        } catch (IOException e) {
            throw new UncheckedIOException("no room for an export's rows on local disk", e);
        }
        rows++;
    }

    long rows() {
        return rows;
    }

    /** Every column the rows have, in the order first seen. */
    List<CsvColumn> columns() {
        return List.copyOf(seen);
    }

    /**
     * Writes every row in order to {@code rows}, its cells in the order of {@code columns} (absent
     * where a row has none), as bytes: nothing is decoded. {@code progress} is told the rows written
     * after every 100,000.
     */
    void replay(List<CsvColumn> columns, CsvRowWriter rows, LongConsumer progress) {
        int[] position = new int[seen.size()];
        for (int n = 0; n < seen.size(); n++) {
            position[n] = columns.indexOf(seen.get(n));
        }
        byte[][] buffers = new byte[columns.size()][];
        byte[][] cells = new byte[columns.size()][];
        int[] lengths = new int[columns.size()];
        try {
            out.close();
            try (var in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
                for (long r = 0; r < this.rows; r++) {
                    Arrays.fill(cells, null);
                    for (int number; (number = in.readInt()) != END; ) {
                        int at = position[number];
                        int length = in.readInt();
                        if (at < 0) {
                            in.skipNBytes(length);
                            continue;
                        }
                        if (buffers[at] == null || buffers[at].length < length) {
                            buffers[at] = new byte[Math.max(length, 64)];
                        }
                        in.readFully(buffers[at], 0, length);
                        cells[at] = buffers[at];
                        lengths[at] = length;
                    }
                    rows.write(cells, lengths, cells.length);
                    if ((r + 1) % 100_000 == 0) {
                        progress.accept(r + 1);
                    }
                }
            }
        } catch (EOFException e) {
            throw new IllegalStateException("an export's spooled rows ended early on local disk", e);
        } catch (IOException e) {
            throw new UncheckedIOException("an export's spooled rows could not be read back", e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException ignored) {
            // closed already, or the disk failed: the file goes anyway
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // the temporary directory's cleanup takes it
        }
    }
}
