package io.dynarestore.exporter.files;

import io.dynarestore.core.csv.ConsoleCells;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Where an export's rows go as they are read: cell by cell ({@link #cell}, then {@link #endRow}), or an item at a time. */
interface RowSink extends ConsoleCells.Sink {

    /** Ends the row whose cells came since the last. */
    void endRow();

    /** One row from an item: its attributes' cells, then the end of the row. */
    void add(Map<String, AttributeValue> item);
}
