package io.dynarestore.exporter.files;

import io.dynarestore.core.csv.ConsoleCells;
import io.dynarestore.core.csv.ConsoleCsv;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Where an export's rows go as they are read: cell by cell ({@link #cell}, then {@link #endRow}), or an item at a time. */
interface RowSink extends ConsoleCells.Sink {

    /** Ends the row whose cells came since the last. */
    void endRow();

    /** One row from an item: its attributes' cells, then the end of the row. */
    default void add(Map<String, AttributeValue> item) {
        for (var e : item.entrySet()) {
            cell(
                    e.getKey(),
                    ConsoleCsv.typeOf(e.getValue()),
                    ConsoleCsv.cell(e.getValue()).getBytes(StandardCharsets.UTF_8));
        }
        endRow();
    }
}
