package io.dynarestore.exporter.files;

import io.dynarestore.core.csv.CsvColumn;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The rows of an export while its columns are still being found, on local disk, so that the backup
 * is read once and memory stays flat (the disk holds about the CSV's size; compressing it cost more
 * time than the second read of the backup it replaces, docs/benchmarks.md): each row is kept as its cells, already
 * formatted, each with the number of its column in the order the columns were first seen, and a
 * row ends with {@link #END}. A row comes as an item ({@link #add}) or cell by cell, straight from
 * the data file's tokens ({@link #cell}, then {@link #endRow}). Once every row is in,
 * {@link #replay} gives them back in the final column order. The file is deleted on close.
 */
final class RowSpool implements AutoCloseable, RowSink {

    /** The column number that ends a row. */
    private static final int END = -1;

    private final Path file;
    private final SpoolOut out;
    /** Column numbers by name, then type: most names have one type, and neither string is copied. */
    private final Map<String, Map<String, Integer>> numbers = new HashMap<>();

    private final List<CsvColumn> seen = new ArrayList<>();
    private long rows;

    private RowSpool(Path file) throws IOException {
        this.file = file;
        this.out = new SpoolOut(Files.newOutputStream(file));
    }

    static RowSpool create() {
        try {
            return new RowSpool(Files.createTempFile("export-rows-", ".bin"));
        } catch (IOException e) {
            throw new UncheckedIOException("no room for an export's rows on local disk", e);
        }
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
    @Override
    public void endRow() {
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
        try (var in = finished()) {
            replay(in, seen, this.rows, columns, rows, 0, progress);
        } catch (IOException e) {
            throw new UncheckedIOException("an export's spooled rows could not be read back", e);
        }
    }

    /** Copies the spool's bytes, once every row is in, to {@code to} (a part of a split export, ADR 0041). */
    void copyTo(OutputStream to) {
        try (var in = finished()) {
            in.transferTo(to);
        } catch (IOException e) {
            throw new UncheckedIOException("an export's spooled rows could not be read back", e);
        }
    }

    private InputStream finished() throws IOException {
        out.close();
        return Files.newInputStream(file);
    }

    /**
     * Reads {@code count} spooled rows from {@code in} (whose cells are numbered by {@code seen}) and
     * writes them to {@code rows} in the order of {@code columns}; rows after {@code count} are not
     * read. {@code progress} is told {@code before} plus the rows written after every 100,000.
     */
    static void replay(
            InputStream in,
            List<CsvColumn> seen,
            long count,
            List<CsvColumn> columns,
            CsvRowWriter rows,
            long before,
            LongConsumer progress) {
        int[] position = new int[seen.size()];
        for (int n = 0; n < seen.size(); n++) {
            position[n] = columns.indexOf(seen.get(n));
        }
        byte[][] buffers = new byte[columns.size()][];
        byte[][] cells = new byte[columns.size()][];
        int[] lengths = new int[columns.size()];
        var spool = new SpoolIn(in);
        try {
            for (long r = 0; r < count; r++) {
                Arrays.fill(cells, null);
                for (int number; (number = spool.readInt()) != END; ) {
                    if (number < 0 || number >= position.length) {
                        throw new IllegalStateException("a spooled row names column " + number + " of "
                                + position.length + "; the spool is damaged");
                    }
                    int at = position[number];
                    int length = spool.readInt();
                    if (at < 0) {
                        spool.skip(length);
                        continue;
                    }
                    if (buffers[at] == null || buffers[at].length < length) {
                        buffers[at] = new byte[Math.max(length, 64)];
                    }
                    spool.readFully(buffers[at], 0, length);
                    cells[at] = buffers[at];
                    lengths[at] = length;
                }
                rows.write(cells, lengths, cells.length);
                if ((before + r + 1) % 100_000 == 0) {
                    progress.accept(before + r + 1);
                }
            }
        } catch (EOFException e) {
            throw new IllegalStateException("an export's spooled rows ended early", e);
        } catch (IOException e) {
            throw new UncheckedIOException("an export's spooled rows could not be read back", e);
        }
    }

    /** The columns that the first {@code count} rows of spooled {@code in} have cells in. */
    static List<CsvColumn> columnsOf(InputStream in, List<CsvColumn> seen, long count) {
        var used = new boolean[seen.size()];
        var spool = new SpoolIn(in);
        try {
            for (long r = 0; r < count; r++) {
                for (int number; (number = spool.readInt()) != END; ) {
                    if (number < 0 || number >= used.length) {
                        throw new IllegalStateException("a spooled row names column " + number + " of " + used.length
                                + "; the spool is damaged");
                    }
                    used[number] = true;
                    spool.skip(spool.readInt());
                }
            }
        } catch (EOFException e) {
            throw new IllegalStateException("an export's spooled rows ended early", e);
        } catch (IOException e) {
            throw new UncheckedIOException("an export's spooled rows could not be read back", e);
        }
        var columns = new ArrayList<CsvColumn>();
        for (int n = 0; n < used.length; n++) {
            if (used[n]) {
                columns.add(seen.get(n));
            }
        }
        return columns;
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

    /** Ints and bytes into a buffer of its own: the spool takes three writes a cell, too many for a synchronized stream. */
    private static final class SpoolOut implements AutoCloseable {
        private final OutputStream out;
        private final byte[] buffer = new byte[1 << 16];
        private int filled;
        private boolean closed;

        SpoolOut(OutputStream out) {
            this.out = out;
        }

        void writeInt(int v) throws IOException {
            if (buffer.length - filled < 4) {
                drain();
            }
            buffer[filled] = (byte) (v >>> 24);
            buffer[filled + 1] = (byte) (v >>> 16);
            buffer[filled + 2] = (byte) (v >>> 8);
            buffer[filled + 3] = (byte) v;
            filled += 4;
        }

        void write(byte[] b) throws IOException {
            if (b.length > buffer.length - filled) {
                drain();
                if (b.length > buffer.length) {
                    out.write(b);
                    return;
                }
            }
            System.arraycopy(b, 0, buffer, filled, b.length);
            filled += b.length;
        }

        private void drain() throws IOException {
            out.write(buffer, 0, filled);
            filled = 0;
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                try {
                    drain();
                } finally {
                    out.close();
                }
            }
        }
    }

    /** Reads back what {@link SpoolOut} wrote, through a buffer of its own. */
    private static final class SpoolIn {
        private final InputStream in;
        private final byte[] buffer = new byte[1 << 16];
        private int position;
        private int limit;

        SpoolIn(InputStream in) {
            this.in = in;
        }

        int readInt() throws IOException {
            if (limit - position < 4) {
                fill(4);
            }
            int v = (buffer[position] & 0xff) << 24
                    | (buffer[position + 1] & 0xff) << 16
                    | (buffer[position + 2] & 0xff) << 8
                    | buffer[position + 3] & 0xff;
            position += 4;
            return v;
        }

        void readFully(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (position == limit) {
                    fill(1);
                }
                int n = Math.min(len, limit - position);
                System.arraycopy(buffer, position, b, off, n);
                position += n;
                off += n;
                len -= n;
            }
        }

        void skip(int len) throws IOException {
            while (len > 0) {
                if (position == limit) {
                    fill(1);
                }
                int n = Math.min(len, limit - position);
                position += n;
                len -= n;
            }
        }

        /** Keeps what is left and reads until at least {@code needed} bytes are buffered. */
        private void fill(int needed) throws IOException {
            int left = limit - position;
            System.arraycopy(buffer, position, buffer, 0, left);
            position = 0;
            limit = left;
            while (limit < needed) {
                int n = in.read(buffer, limit, buffer.length - limit);
                if (n < 0) {
                    throw new EOFException("the spool ended inside a row");
                }
                limit += n;
            }
        }
    }
}
