package io.dynarestore.exporter.files;

import io.dynarestore.core.csv.CsvColumn;
import java.util.List;

/**
 * What one part of a split export staged for the merge (ADR 0041): how many rows its spool holds
 * (at most the cap), how many items of its files matched (one more than the cap when the cap cut
 * it), the spool's size, and its columns in the numbering of its spooled cells.
 */
public record StagedPart(long rows, long matching, long bytes, List<CsvColumn> columns) {

    public StagedPart {
        columns = List.copyOf(columns);
    }

    /** The part's columns and counts, written after its rows. */
    static String key(String staging, int part) {
        return staging + "part-" + part + ".json";
    }

    /** The part's spooled rows. */
    static String rowsKey(String staging, int part) {
        return staging + "part-" + part + ".rows";
    }
}
