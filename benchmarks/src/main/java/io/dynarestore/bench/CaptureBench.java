package io.dynarestore.bench;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.changelog.CaptureCheckpoint;
import io.dynarestore.protector.changelog.StreamCapture;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.StreamedTables;
import io.dynarestore.testkit.StreamsEndpoint;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Records captured per second by one protector's capture, against the Streams endpoint's own
 * GetRecords rate measured in the same run by a minimal client that reads every shard and does
 * nothing else (issue #19). The stream is filled first (N writes, shards of 10,000 records); the
 * capture then reads it all from a checkpoint at its start, buffers, and flushes it into the vault
 * (gzip, S3Proxy) every second. Heap in use is sampled while it runs, for N and 2N records.
 *
 * <pre>./mvnw -q -DskipTests install && java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.CaptureBench [records]</pre>
 */
public final class CaptureBench {

    private static final String ACCOUNT = "000000000000";
    private static final String REGION = "us-east-1";

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        try (var dynalite = Dynalite.start(); var s3 = S3Server.start("vault");
             var endpoint = StreamsEndpoint.inFrontOf(dynalite.endpoint()).recordsPerShard(10_000);
             var streams = DynamoDbStreamsClient.builder().endpointOverride(endpoint.endpoint())
                     .region(Region.US_EAST_1).credentialsProvider(StaticCredentialsProvider.create(
                             AwsBasicCredentials.create("a", "b"))).build()) {
            var dynamo = Dynalite.client(endpoint.endpoint());
            var layout = new VaultLayout("vault", "");
            var results = new ArrayList<String>();
            for (int n : List.of(records, 2 * records)) {
                String table = "bench-" + n;
                long filling = System.nanoTime();
                fill(dynamo, table, n);
                System.err.printf("filled %,d records in %.1f s%n", n, (System.nanoTime() - filling) / 1e9);
                double baseline = 0;
                for (int round = 0; round < 2; round++) { // the second round is warm
                    baseline = tightRead(streams, dynamo.describeTable(b -> b.tableName(table)).table()
                            .latestStreamArn(), n);
                }
                plantCheckpoint(s3, layout, table, dynamo.describeTable(b -> b.tableName(table)).table()
                        .latestStreamArn());
                var flushed = new AtomicLong();
                var capture = new StreamCapture(streams, dynamo, s3.client(), layout, ACCOUNT, REGION, table,
                        new StreamCapture.Settings(Duration.ofSeconds(1), Duration.ZERO, 20_000, 10_000),
                        Clock.systemUTC(), new StreamCapture.Listener() {
                            @Override
                            public void flushed(ExportMetadata export, long count, Duration lag) {
                                flushed.addAndGet(count);
                            }

                            @Override
                            public void gapped(Instant from, Instant to, String reason) {
                                throw new IllegalStateException("gap: " + reason);
                            }
                        });
                var memory = ManagementFactory.getMemoryMXBean();
                System.gc();
                long peak = 0;
                long start = System.nanoTime();
                capture.start();
                long report = System.nanoTime();
                while (flushed.get() < n) {
                    capture.step();
                    peak = Math.max(peak, memory.getHeapMemoryUsage().getUsed());
                    if (System.nanoTime() - report > 5_000_000_000L) {
                        report = System.nanoTime();
                        System.err.printf("captured %,d, buffered %,d%n", flushed.get(), capture.buffered());
                    }
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                double rate = n / seconds;
                results.add(String.format("| %,d | %,.0f records/s | %,.0f records/s | **%.2f** | %d MB |", n,
                        baseline, rate, rate / baseline, peak >> 20));
            }
            System.out.println("| records | GetRecords, minimal client | capture into the vault | ratio | heap peak |");
            System.out.println("| --- | --- | --- | --- | --- |");
            results.forEach(System.out::println);
        }
    }

    private static void fill(DynamoDbClient dynamo, String table, int n) {
        StreamedTables.create(dynamo, table, RandomItems.Shape.simple());
        var items = new RandomItems(n, RandomItems.Shape.simple());
        var batch = new ArrayList<WriteRequest>();
        for (int i = 0; i < n; i++) {
            int index = i;
            batch.add(WriteRequest.builder().putRequest(p -> p.item(items.item(index))).build());
            if (batch.size() == 25) {
                var send = List.copyOf(batch);
                dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, send)));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, List.copyOf(batch))));
        }
    }

    /** Reads every shard from its start to its end with nothing else: the rate the endpoint serves. */
    private static double tightRead(DynamoDbStreamsClient streams, String arn, int expected) {
        long start = System.nanoTime();
        long read = 0;
        for (var shard : streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards()) {
            String it = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (it != null) {
                String current = it;
                var page = streams.getRecords(b -> b.shardIterator(current).limit(1_000));
                read += page.records().size();
                it = page.records().isEmpty() ? null : page.nextShardIterator();
            }
        }
        if (read != expected) {
            throw new IllegalStateException("read " + read + " records of " + expected);
        }
        return read / ((System.nanoTime() - start) / 1e9);
    }

    /** A checkpoint before the stream's first record, as if the table had been protected all along. */
    private static void plantCheckpoint(S3Server s3, VaultLayout layout, String table, String streamArn) {
        String prefix = layout.exportPrefix(ACCOUNT, REGION, table, "stream-19700101T000000Z");
        var checkpoint = new CaptureCheckpoint(streamArn, Instant.EPOCH.plusSeconds(1), Map.of(), List.of());
        var export = new ExportMetadata(ExportMetadata.FORMAT_VERSION, "stream-19700101T000000Z", ACCOUNT, REGION,
                table, Instant.EPOCH, Instant.EPOCH.plusSeconds(1), false, 0, null);
        s3.client().putObject(b -> b.bucket("vault").key(prefix + VaultLayout.EXPORT_JSON), RequestBody.fromBytes(
                Json.toBytes(export)));
        s3.client().putObject(b -> b.bucket("vault").key(prefix + CaptureCheckpoint.FILE),
                RequestBody.fromBytes(Json.toBytes(checkpoint)));
    }
}
