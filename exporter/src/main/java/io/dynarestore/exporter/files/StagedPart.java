package io.dynarestore.exporter.files;

import io.dynarestore.core.csv.CsvColumn;
import java.util.List;

/**
 * What one part of a split export staged for the merge (ADR 0041): how many rows it holds (at most
 * the cap), how many items of its files matched (one more than the cap when the cap cut it), the
 * staged object's size, and its columns: the numbering of its spooled cells, or, when {@code csv},
 * the known header its rows were written under as final CSV records.
 */
public record StagedPart(long rows, long matching, long bytes, List<CsvColumn> columns, boolean csv) {

    public StagedPart {
        columns = List.copyOf(columns);
    }

    /** The part's columns and counts, written after its rows. */
    static String key(String staging, int part) {
        return staging + "part-" + part + ".json";
    }

    /** The part's rows as CSV records, when the header was known. */
    static String csvKey(String staging, int part) {
        return staging + "part-" + part + ".csv";
    }

    /** The part's spooled rows. */
    static String rowsKey(String staging, int part) {
        return staging + "part-" + part + ".rows";
    }
}
