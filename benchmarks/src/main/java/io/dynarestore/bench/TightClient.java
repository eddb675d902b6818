package io.dynarestore.bench;

import static io.dynarestore.bench.BenchFixtures.SHAPE;
import static io.dynarestore.bench.BenchFixtures.createTable;
import static io.dynarestore.bench.BenchFixtures.writeAll;

import io.dynarestore.core.threads.DaemonThreads;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.RandomItems;
import java.net.URI;
import java.util.ArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The baseline of the full-restore benchmarks, run as a process of its own like the item-writer it
 * is compared with: a tight BatchWriteItem client, {@code threads} threads of 25-item batches, each
 * its own share of the same items the benchmark's backup holds, into a new table; nothing else.
 * Prints {@code TIGHT <items per second> <CPU seconds of this process while writing>} of the last
 * of {@code warmups + 1} runs of the same items (the earlier ones into scratch tables it deletes).
 *
 * <pre>TightClient &lt;dynamodb endpoint&gt; &lt;table&gt; &lt;items&gt; &lt;threads&gt; [warmups]</pre>
 */
final class TightClient {

    private TightClient() {}

    public static void main(String[] args) throws Exception {
        DynamoDbClient dynamo = Dynalite.client(URI.create(args[0]));
        String table = args[1];
        int count = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        int warmups = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        var items = new RandomItems(6, SHAPE);
        for (int w = 1; w <= warmups; w++) { // the same run, unmeasured, so that the measured one is warm
            String scratch = table + "-warmup-" + w;
            write(dynamo, scratch, items, count, threads);
            dynamo.deleteTable(b -> b.tableName(scratch));
        }
        long cpu0 = CpuMeter.processCpu();
        double rate = write(dynamo, table, items, count, threads);
        System.out.printf("TIGHT %.1f %.3f%n", rate, (CpuMeter.processCpu() - cpu0) / 1e9);
        System.exit(0);
    }

    /** Creates {@code table} and writes the items into it; items per second from the first write. */
    private static double write(DynamoDbClient dynamo, String table, RandomItems items, int count, int threads)
            throws Exception {
        createTable(dynamo, table);
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads, DaemonThreads.named("tight"));
        var futures = new ArrayList<Future<?>>();
        for (int t = 0; t < threads; t++) {
            int part = t;
            futures.add(pool.submit(() -> {
                var batch = new ArrayList<WriteRequest>(25);
                for (int i = part; i < count; i += threads) {
                    batch.add(WriteRequest.builder()
                            .putRequest(PutRequest.builder().item(items.item(i)).build())
                            .build());
                    if (batch.size() == 25) {
                        writeAll(dynamo, table, batch);
                    }
                }
                writeAll(dynamo, table, batch);
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        double rate = count / ((System.nanoTime() - t0) / 1e9);
        pool.shutdown();
        return rate;
    }
}
