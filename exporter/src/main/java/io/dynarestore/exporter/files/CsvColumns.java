package io.dynarestore.exporter.files;

import io.dynarestore.core.csv.ConsoleCsv;
import io.dynarestore.core.csv.CsvColumn;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The columns of an export, gathered in a first pass over the matching items (only names and
 * types are kept, so memory does not grow with the item count): the key attributes first, in key
 * order, then every other attribute by name; an attribute seen with several types gets a column
 * per type, in type order. Stable: the same items give the same columns, whatever their order.
 */
public final class CsvColumns {

    private final List<String> keyAttributes;
    private final TreeSet<CsvColumn> seen =
            new TreeSet<>(Comparator.comparing(CsvColumn::name).thenComparing(CsvColumn::type));

    public CsvColumns(List<String> keyAttributes) {
        this.keyAttributes = List.copyOf(keyAttributes);
    }

    public void observe(Map<String, AttributeValue> item) {
        for (var e : item.entrySet()) {
            observe(new CsvColumn(e.getKey(), ConsoleCsv.typeOf(e.getValue())));
        }
    }

    public void observe(CsvColumn column) {
        seen.add(column);
    }

    public List<CsvColumn> columns() {
        var columns = new ArrayList<CsvColumn>();
        for (String key : keyAttributes) {
            for (CsvColumn c : seen) {
                if (c.name().equals(key)) {
                    columns.add(c);
                }
            }
        }
        for (CsvColumn c : seen) {
            if (!keyAttributes.contains(c.name())) {
                columns.add(c);
            }
        }
        return columns;
    }
}
