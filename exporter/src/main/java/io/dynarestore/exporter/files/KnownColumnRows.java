package io.dynarestore.exporter.files;

import io.dynarestore.core.csv.CsvColumn;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Rows written straight to the file, when the header is known before the backup is read (its
 * metadata lists every attribute and type): each cell goes to its column's place, and each row to
 * the writer when it ends. A cell of a column the header lacks stops the export
 * ({@link UnlistedColumn}): the listed types were wrong, and the export falls back to the spool.
 */
final class KnownColumnRows implements RowSink {

    /** A cell whose column the known header does not have. */
    static final class UnlistedColumn extends RuntimeException {
        UnlistedColumn(String name, String type) {
            super("attribute " + name + " of type " + type + " is not in the backup's listed attribute types");
        }
    }

    private final Map<String, Map<String, Integer>> positions = new HashMap<>();
    private final CsvRowWriter out;
    private final byte[][] cells;
    private final int[] lengths;
    private final int[] present; // the columns this row has, in the order its cells came
    private int count;
    private final LongConsumer progress;
    private long rows;

    KnownColumnRows(List<CsvColumn> header, CsvRowWriter out, LongConsumer progress) {
        for (int i = 0; i < header.size(); i++) {
            var c = header.get(i);
            positions.computeIfAbsent(c.name(), n -> new HashMap<>(2)).put(c.type(), i);
        }
        this.out = out;
        this.cells = new byte[header.size()][];
        this.lengths = new int[header.size()];
        this.present = new int[header.size()];
        this.progress = progress;
    }

    @Override
    public void cell(String name, String type, byte[] cell) {
        var byType = positions.get(name);
        Integer at = byType == null ? null : byType.get(type);
        if (at == null) {
            throw new UnlistedColumn(name, type);
        }
        if (cells[at] == null) {
            present[count++] = at;
        }
        cells[at] = cell; // a name given twice keeps its last value, as the parsed item does
        lengths[at] = cell.length;
    }

    @Override
    public void endRow() {
        Arrays.sort(present, 0, count);
        out.writeSparse(cells, lengths, present, count, cells.length);
        for (int i = 0; i < count; i++) {
            cells[present[i]] = null;
        }
        count = 0;
        if (++rows % 100_000 == 0) {
            progress.accept(rows);
        }
    }
}
