package io.dynarestore.exporter.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.csv.ConsoleCsv;
import io.dynarestore.core.csv.CsvColumn;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class RowSpoolTest {

    @Test
    void givesEveryRowBackWithItsCellsInTheFinalColumnOrder() {
        // Given 2,000 random items of varying attributes and types (one cell far beyond 64 KB), spooled
        // before their columns are known
        var random = new Random(3);
        var items = new ArrayList<Map<String, AttributeValue>>();
        var columns = new CsvColumns(List.of("pk"));
        List<String> replayed = new ArrayList<>();
        try (var spool = RowSpool.create()) {
            for (int i = 0; i < 2_000; i++) {
                var item = new LinkedHashMap<String, AttributeValue>();
                item.put("pk", AttributeValue.fromS("p" + i));
                for (int a = random.nextInt(5); a > 0; a--) {
                    String name = "a" + random.nextInt(8);
                    item.put(
                            name,
                            random.nextBoolean()
                                    ? AttributeValue.fromN(Integer.toString(random.nextInt()))
                                    : AttributeValue.fromS("=x" + "é".repeat(random.nextInt(4))));
                }
                if (i == 1_000) {
                    item.put("big", AttributeValue.fromS("y".repeat(300_000)));
                }
                items.add(item);
                columns.observe(item);
                spool.add(item);
            }
            assertThat(spool.rows()).isEqualTo(2_000);

            // When they are replayed in the final column order
            List<CsvColumn> order = columns.columns();
            spool.replay(
                    order,
                    cells -> replayed.add(String.join(
                            "|",
                            cells.stream().map(c -> c == null ? "<absent>" : c).toList())));

            // Then each row holds the cells the console writer would give its item, in that order
            assertThat(replayed).hasSize(2_000);
            for (int i = 0; i < items.size(); i++) {
                var item = items.get(i);
                var expected = order.stream()
                        .map(c -> {
                            AttributeValue v = item.get(c.name());
                            return v == null || !ConsoleCsv.typeOf(v).equals(c.type())
                                    ? "<absent>"
                                    : ConsoleCsv.cell(v);
                        })
                        .toList();
                assertThat(replayed.get(i)).isEqualTo(String.join("|", expected));
            }
        }
    }
}
