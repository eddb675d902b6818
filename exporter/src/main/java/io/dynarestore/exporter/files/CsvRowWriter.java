package io.dynarestore.exporter.files;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes CSV records of UTF-8 cells straight to bytes, exactly as the console CSV writer (FastCSV,
 * quote strategy EMPTY, CRLF) writes them: a cell is quoted, its quotes doubled, when it is empty,
 * holds a comma, a quote, CR or LF, or is a record's first cell and starts with {@code #}; an
 * absent cell is nothing. These bytes never occur inside a multi-byte UTF-8 sequence, so cells are
 * escaped without decoding them: an export's rows go from its spool to the upload as bytes. What is
 * written reaches the stream on {@link #flush}.
 */
final class CsvRowWriter {

    /** Filled here and handed on whole: a wide record is hundreds of separators, each a call on a synchronized stream otherwise. */
    private static final int BUFFER = 1 << 16;

    /** Separators copied a run at a time: the columns an item lacks are most of a wide, sparse table's row. */
    private static final byte[] COMMAS = ",".repeat(1024).getBytes(StandardCharsets.US_ASCII);

    private final OutputStream out;
    private final byte[] buffer = new byte[BUFFER];
    private int filled;

    CsvRowWriter(OutputStream out) {
        this.out = out;
    }

    /** A record of text cells ({@code null}: absent). */
    void write(String... cells) {
        byte[][] bytes = new byte[cells.length][];
        int[] lengths = new int[cells.length];
        for (int i = 0; i < cells.length; i++) {
            bytes[i] = cells[i] == null ? null : cells[i].getBytes(StandardCharsets.UTF_8);
            lengths[i] = bytes[i] == null ? 0 : bytes[i].length;
        }
        write(bytes, lengths, cells.length);
    }

    /** A record of {@code count} cells, cell {@code i} the first {@code lengths[i]} bytes of {@code cells[i]} ({@code null}: absent). */
    void write(byte[][] cells, int[] lengths, int count) {
        try {
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    put((byte) ',');
                }
                byte[] cell = cells[i];
                if (cell != null) {
                    writeCell(cell, lengths[i], i == 0);
                }
            }
            put((byte) '\r');
            put((byte) '\n');
        } catch (IOException e) {
            throw new UncheckedIOException("could not write a CSV record", e);
        }
    }

    /**
     * The same record as {@link #write(byte[][], int[], int)}, from only its present cells: the
     * {@code present} column numbers in {@code columns}, ascending and distinct, out of {@code count};
     * the other slots of {@code cells} are not read.
     */
    void writeSparse(byte[][] cells, int[] lengths, int[] columns, int present, int count) {
        try {
            int next = 0; // the first column whose separator is not written yet
            for (int k = 0; k < present; k++) {
                int column = columns[k];
                commas(column - Math.max(next, 1) + 1);
                writeCell(cells[column], lengths[column], column == 0);
                next = column + 1;
            }
            commas(count - Math.max(next, 1));
            put((byte) '\r');
            put((byte) '\n');
        } catch (IOException e) {
            throw new UncheckedIOException("could not write a CSV record", e);
        }
    }

    private void commas(int n) throws IOException {
        while (n > 0) {
            int run = Math.min(n, COMMAS.length);
            put(COMMAS, 0, run);
            n -= run;
        }
    }

    /** Hands on what is buffered, and flushes the stream. */
    void flush() {
        try {
            drain();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("could not write a CSV record", e);
        }
    }

    private void writeCell(byte[] cell, int length, boolean first) throws IOException {
        if (!needsQuotes(cell, length, first)) {
            put(cell, 0, length);
            return;
        }
        put((byte) '"');
        int from = 0;
        for (int i = 0; i < length; i++) {
            if (cell[i] == '"') {
                put(cell, from, i + 1 - from); // the quote, then it again
                from = i;
            }
        }
        put(cell, from, length - from);
        put((byte) '"');
    }

    private void put(byte b) throws IOException {
        if (filled == BUFFER) {
            drain();
        }
        buffer[filled++] = b;
    }

    private void put(byte[] b, int off, int len) throws IOException {
        if (len > BUFFER - filled) {
            drain();
            if (len > BUFFER) {
                out.write(b, off, len); // a cell larger than the buffer goes on as it is
                return;
            }
        }
        System.arraycopy(b, off, buffer, filled, len);
        filled += len;
    }

    private void drain() throws IOException {
        if (filled > 0) {
            out.write(buffer, 0, filled);
            filled = 0;
        }
    }

    private static boolean needsQuotes(byte[] cell, int length, boolean first) {
        if (length == 0 || first && cell[0] == '#') {
            return true;
        }
        for (int i = 0; i < length; i++) {
            byte b = cell[i];
            if (b == ',' || b == '"' || b == '\n' || b == '\r') {
                return true;
            }
        }
        return false;
    }
}
