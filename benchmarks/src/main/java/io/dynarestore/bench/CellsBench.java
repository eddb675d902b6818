package io.dynarestore.bench;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.csv.ConsoleCells;
import io.dynarestore.testkit.RandomItems;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import tools.jackson.core.JsonParser;

/**
 * The CSV export's cells in memory (issue #22): {@link ConsoleCells} over the lines of random items of
 * every type, against a pass of Jackson's parser over the same bytes that only reads the tokens (the
 * least any reader of DynamoDB JSON does). No S3, no disk, no upload; one thread.
 *
 * <pre>java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.CellsBench [items] [rounds]</pre>
 */
public final class CellsBench {

    private CellsBench() {}

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        byte[] lines = lines(count);
        double[] cells = new double[rounds];
        double[] tokens = new double[rounds];
        long checksum = 0;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            checksum += cells(lines);
            long t1 = System.nanoTime();
            checksum += tokens(lines);
            long t2 = System.nanoTime();
            cells[r] = (t1 - t0) / 1e9;
            tokens[r] = (t2 - t1) / 1e9;
        }
        // the first half warms the JIT; of the rest, the fastest round of each is the least disturbed
        double bestCells = Arrays.stream(cells, rounds / 2, rounds).min().orElseThrow();
        double bestTokens = Arrays.stream(tokens, rounds / 2, rounds).min().orElseThrow();
        System.out.printf(
                "cells: %,d items, %,d bytes; cells %.3f s, tokens only %.3f s (fastest of the last %d rounds; %d)%n",
                count, lines.length, bestCells, bestTokens, rounds - rounds / 2, checksum);
        System.out.printf("RATIO cells / tokens only, time = %.2f%n", bestCells / bestTokens);
    }

    /** One {@code {"Item":{..}}} line per random item, as a backup's data file holds them inflated. */
    static byte[] lines(int count) {
        var items = new RandomItems(1, RandomItems.Shape.simple());
        var out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            try (var g = DynamoJson.generator(out)) {
                g.writeStartObject();
                g.writeName("Item");
                DynamoJson.writeItem(g, items.item(i));
                g.writeEndObject();
            }
            out.write('\n');
        }
        return out.toByteArray();
    }

    private static long cells(byte[] lines) {
        var cells = new ConsoleCells();
        long[] bytes = new long[1];
        try (JsonParser p = DynamoJson.parser(lines, 0, lines.length)) {
            while (p.nextToken() != null) {
                p.nextName(); // Item
                p.nextToken();
                cells.read(p, (name, type, cell) -> bytes[0] += cell.length);
                p.nextToken(); // the line's closing brace
            }
        }
        return bytes[0];
    }

    private static long tokens(byte[] lines) {
        long n = 0;
        try (JsonParser p = DynamoJson.parser(lines, 0, lines.length)) {
            while (p.nextToken() != null) {
                n++;
            }
        }
        return n;
    }
}
