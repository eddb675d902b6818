package io.dynarestore.exporter.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.csv.ConsoleCsv;
import io.dynarestore.core.csv.CsvColumn;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class RowSpoolTest {

    private static final String[] HOSTILE = {"", "#x", "a,b", "q\"q", "l\nf", "c\rr", "=1", "é€😀", " sp ", "\"", ","};

    static LongStream seeds() {
        return LongStream.range(0, 8);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void replaysTheExactBytesTheConsoleWriterWritesInTheFinalColumnOrder(long seed) {
        // Given 2,000 random items of varying attributes and types, with cells that need quoting, keys
        // starting with '#', empty strings, unicode and one cell far beyond 64 KB, spooled before their
        // columns are known
        var random = new Random(seed);
        var items = new ArrayList<Map<String, AttributeValue>>();
        var columns = new CsvColumns(List.of("pk"));
        var replayed = new ByteArrayOutputStream();
        var progress = new ArrayList<Long>();
        try (var spool = RowSpool.create()) {
            for (int i = 0; i < 2_000; i++) {
                var item = new LinkedHashMap<String, AttributeValue>();
                item.put("pk", AttributeValue.fromS(random.nextInt(10) == 0 ? "#p" + i : "p" + i));
                for (int a = random.nextInt(6); a > 0; a--) {
                    String name = "a" + random.nextInt(8);
                    item.put(name, value(random));
                }
                if (i == 1_000) {
                    item.put("big", AttributeValue.fromS("y".repeat(300_000)));
                }
                items.add(item);
                columns.observe(item);
                spool.add(item);
            }
            assertThat(spool.rows()).isEqualTo(2_000);

            // When they are replayed in the final column order, after the header
            List<CsvColumn> order = columns.columns();
            var rows = new CsvRowWriter(replayed);
            rows.write(order.stream().map(CsvColumn::header).toArray(String[]::new));
            spool.replay(order, rows, progress::add);
            rows.flush();
        }

        // Then the bytes are the console writer's for the same items, byte for byte
        var expected = new ByteArrayOutputStream();
        try (var csv = ConsoleCsv.writer(expected, columns.columns())) {
            items.forEach(csv::write);
        }
        assertThat(replayed.toByteArray()).isEqualTo(expected.toByteArray());
        assertThat(progress).isEmpty(); // told after every 100,000 rows only
    }

    private static AttributeValue value(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> AttributeValue.fromN(Integer.toString(random.nextInt()));
            case 1 -> AttributeValue.fromS(HOSTILE[random.nextInt(HOSTILE.length)]);
            case 2 -> AttributeValue.fromSs(List.of("a,\"b\"", HOSTILE[random.nextInt(HOSTILE.length)] + "z"));
            default -> AttributeValue.fromBool(random.nextBoolean());
        };
    }
}
