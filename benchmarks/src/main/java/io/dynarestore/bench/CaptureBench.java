package io.dynarestore.bench;

import com.sun.management.OperatingSystemMXBean;
import io.dynarestore.contracts.Json;
import io.dynarestore.core.aws.StreamRecordBodies;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.changelog.CaptureCheckpoint;
import io.dynarestore.protector.changelog.StreamCapture;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.StreamedTables;
import io.dynarestore.testkit.StreamsEndpoint;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records captured per second by one protector's capture, against the Streams endpoint's own
 * GetRecords rate measured in the same run by a minimal client that reads every shard and does
 * nothing else (issue #19). The stream is filled first (N records of new random items, put into the
 * endpoint's stream directly, without dynalite; shards of 10,000 records); the
 * capture then reads it all from a checkpoint at its start, buffers, and flushes it into the vault
 * (gzip, S3Proxy) every second or every 20,000 writes, and at once when it has caught up with the
 * backlog. For N and 2N records; the time runs until the last record is in the vault, and how much
 * of it was the last flushes after the last read is printed beside it.
 *
 * <p>What the replica does not run runs in another JVM: dynalite, the Streams endpoint and
 * S3Proxy, pinned to the first core, while this JVM (the minimal client, then the capture) is
 * pinned to the second, as the database and the replica are different machines in production
 * (without {@code taskset} or with one core, nothing is pinned). So this JVM's heap is the
 * capture's own: the live heap after each collection is sampled while it runs.
 *
 * <pre>./mvnw -q -DskipTests install && java -Xms512m -Xmx512m -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.CaptureBench [records]</pre>
 */
public final class CaptureBench {

    private static final String ACCOUNT = "000000000000";
    private static final String REGION = "us-east-1";
    /**
     * Rounds of each reader per size, the last one measured: a replica runs for days, so what counts
     * is its rate once the JIT has compiled its path (on the one core the bench gives it, compiling
     * competes with the first rounds); the minimal client gets as many.
     */
    private static final int ROUNDS = 3;
    /** The protector's default {@code protector.capture.poll-interval}. */
    private static final long POLL_INTERVAL_MS = 200;

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("services")) {
            services();
            return;
        }
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        boolean pinned = Runtime.getRuntime().availableProcessors() >= 2 && new File("/usr/bin/taskset").canExecute();
        var command = new ArrayList<String>();
        if (pinned) {
            command.addAll(List.of("taskset", "-c", "0"));
            new ProcessBuilder(
                            "taskset",
                            "-a",
                            "-p",
                            "-c",
                            "1",
                            String.valueOf(ProcessHandle.current().pid()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        }
        command.addAll(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                CaptureBench.class.getName(),
                "services"));
        var child = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        var out = new BufferedReader(new InputStreamReader(child.getInputStream()));
        String ready = out.readLine();
        while (ready != null && !ready.startsWith("READY ")) {
            ready = out.readLine(); // the services' log lines
        }
        var replies = new LinkedBlockingQueue<String>();
        var drain = new Thread(() -> out.lines().forEach(line -> {
            if (line.startsWith("FILLED ")) {
                replies.add(line); // the rest are the services' log lines
            }
        }));
        var commands = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
        drain.setDaemon(true);
        drain.start();
        if (ready == null || !ready.startsWith("READY ")) {
            throw new IllegalStateException("the services did not start: " + ready);
        }
        var endpoints = ready.split(" ");
        var streamsEndpoint = URI.create(endpoints[1]);
        var s3 = S3Server.client(URI.create(endpoints[2]));
        try (var streams = DynamoDbStreamsClient.builder()
                .endpointOverride(streamsEndpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .build()) {
            var dynamo = Dynalite.client(streamsEndpoint);
            // the capture's client as the protector builds it (AwsClients): it keeps the images as sent
            var captureStreams = DynamoDbStreamsClient.builder()
                    .endpointOverride(streamsEndpoint)
                    .region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                    .overrideConfiguration(c -> c.addExecutionInterceptor(StreamRecordBodies.INTERCEPTOR))
                    .build();
            var results = new ArrayList<String>();
            var writers = Executors.newSingleThreadExecutor();
            for (int n : List.of(records, 2 * records)) {
                String table = "bench-" + n;
                long filling = System.nanoTime();
                fill(dynamo, commands, replies, table, n);
                System.err.printf("filled %,d records in %.1f s%n", n, (System.nanoTime() - filling) / 1e9);
                System.gc();
                String arn =
                        dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
                double baseline = 0;
                double baselineCpu = 0;
                double baselineServices = 0;
                for (int round = 0; round < ROUNDS; round++) { // the last round is warm
                    long cpu = processCpuNanos();
                    long services = childCpuNanos(child);
                    baseline = tightRead(streams, arn, n);
                    baselineCpu = (processCpuNanos() - cpu) / 1e3 / n;
                    baselineServices = (childCpuNanos(child) - services) / 1e3 / n;
                }
                long[] peak = new long[1];
                double seconds = 0;
                double captureCpu = 0;
                double captureServices = 0;
                for (int round = 0; round < ROUNDS; round++) { // the first rounds warm the capture's code
                    String root = round == ROUNDS - 1 ? "" : "warm-up-" + round;
                    var layout = new VaultLayout("vault", root);
                    plantCheckpoint(s3, layout, table, arn);
                    long cpu = processCpuNanos();
                    long services = childCpuNanos(child);
                    seconds = capture(captureStreams, dynamo, s3, layout, table, n, writers, peak);
                    captureCpu = (processCpuNanos() - cpu) / 1e3 / n;
                    captureServices = (childCpuNanos(child) - services) / 1e3 / n;
                }
                double rate = n / seconds;
                results.add(String.format(
                        "| %,d | %,.0f records/s, %.0f µs CPU each (services %.0f) | %,.0f records/s, "
                                + "%.0f µs CPU each (services %.0f) | **%.2f** | %d MB |",
                        n,
                        baseline,
                        baselineCpu,
                        baselineServices,
                        rate,
                        captureCpu,
                        captureServices,
                        rate / baseline,
                        peak[0] >> 20));
            }
            writers.shutdownNow();
            System.out.println(pinned ? "services on core 0, this JVM on core 1" : "not pinned");
            System.out.println(
                    "| records | GetRecords, minimal client | capture into the vault | ratio | live heap after GC, peak |");
            System.out.println("| --- | --- | --- | --- | --- |");
            results.forEach(System.out::println);
        } finally {
            commands.close(); // the services stop when their stdin ends
            child.waitFor();
        }
    }

    /** Captures the whole stream from a checkpoint at its start; returns the seconds until all of it is flushed. */
    private static double capture(
            DynamoDbStreamsClient streams,
            DynamoDbClient dynamo,
            S3Client s3,
            VaultLayout layout,
            String table,
            int n,
            Executor writers,
            long[] peak)
            throws InterruptedException {
        var flushed = new AtomicLong();
        var capture = new StreamCapture(
                streams,
                dynamo,
                s3,
                layout,
                ACCOUNT,
                REGION,
                table,
                null,
                new StreamCapture.Settings(Duration.ofSeconds(1), Duration.ZERO, 20_000, 10_000),
                Clock.systemUTC(),
                writers,
                new StreamCapture.Listener() {
                    @Override
                    public void flushed(ExportMetadata export, long count, Duration lag) {
                        flushed.addAndGet(count);
                    }

                    @Override
                    public void gapped(Instant from, Instant to, String reason) {
                        throw new IllegalStateException("gap: " + reason);
                    }
                });
        System.gc();
        long start = System.nanoTime();
        capture.start();
        long report = System.nanoTime();
        long readAll = 0;
        while (flushed.get() < n) {
            if (readAll == 0 && flushed.get() + capture.buffered() >= n) {
                readAll = System.nanoTime(); // the rest is the last flush's wait and write
            }
            if (!capture.step()) {
                Thread.sleep(POLL_INTERVAL_MS); // as the protector paces a caught-up capture
            }
            peak[0] = Math.max(peak[0], liveHeap());
            if (System.nanoTime() - report > 5_000_000_000L) {
                report = System.nanoTime();
                System.err.printf("captured %,d, buffered %,d%n", flushed.get(), capture.buffered());
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.err.printf(
                "read all %,d in %.2f s, flushed all in %.2f s%n",
                n, ((readAll == 0 ? System.nanoTime() : readAll) - start) / 1e9, seconds);
        capture.stop();
        return seconds;
    }

    /** The CPU the services' JVM used so far (Linux: utime + stime of /proc/pid/stat), or 0 where unknown. */
    private static long childCpuNanos(Process child) {
        try {
            String stat = Files.readString(Path.of("/proc/" + child.pid() + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L; // clock ticks of 10 ms
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long processCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** The database's side, in its own JVM: dynalite, the Streams endpoint in front of it, S3Proxy. */
    private static void services() throws Exception {
        try (var dynalite = Dynalite.start();
                var s3 = S3Server.start("vault");
                var endpoint = StreamsEndpoint.inFrontOf(dynalite.endpoint()).recordsPerShard(10_000)) {
            System.out.println("READY " + endpoint.endpoint() + " " + s3.endpoint());
            System.out.flush();
            var commands = new BufferedReader(new InputStreamReader(System.in));
            var json = JsonMapper.builder().build();
            for (String line; (line = commands.readLine()) != null; ) { // until the bench ends
                String[] command = line.split(" ");
                if (command[0].equals("FILL")) {
                    int n = Integer.parseInt(command[2]);
                    var items = new RandomItems(n, RandomItems.Shape.simple());
                    for (int i = 0; i < n; i++) {
                        endpoint.recordCreated(command[1], json.readTree(DynamoJson.toJson(items.item(i))));
                    }
                    System.out.println("FILLED " + command[1]);
                    System.out.flush();
                }
            }
        }
    }

    /** The heap still in use after the last collection of each pool: what the capture holds, not its garbage. */
    private static long liveHeap() {
        long used = 0;
        for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
            var after = pool.getCollectionUsage();
            if (pool.getType() == MemoryType.HEAP && after != null) {
                used += after.getUsed();
            }
        }
        return used;
    }

    /**
     * Creates the table through the endpoint, then has the services' JVM put {@code n} records of new
     * random items into its stream directly ({@link StreamsEndpoint#recordCreated}): the same records a
     * PutItem of each would make, without dynalite's 800 writes a second. Only the stream is read here.
     */
    private static void fill(DynamoDbClient dynamo, Writer services, BlockingQueue<String> replies, String table, int n)
            throws IOException, InterruptedException {
        StreamedTables.create(dynamo, table, RandomItems.Shape.simple());
        services.write("FILL " + table + " " + n + "\n");
        services.flush();
        String reply = replies.poll(10, TimeUnit.MINUTES);
        if (!("FILLED " + table).equals(reply)) {
            throw new IllegalStateException("the services did not fill " + table + ": " + reply);
        }
    }

    /** Reads every shard from its start to its end with nothing else: the rate the endpoint serves. */
    private static double tightRead(DynamoDbStreamsClient streams, String arn, int expected) {
        long start = System.nanoTime();
        long read = 0;
        for (var shard : streams.describeStream(b -> b.streamArn(arn))
                .streamDescription()
                .shards()) {
            String it = streams.getShardIterator(b ->
                            b.streamArn(arn).shardId(shard.shardId()).shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                    .shardIterator();
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
    private static void plantCheckpoint(S3Client s3, VaultLayout layout, String table, String streamArn) {
        String prefix = layout.exportPrefix(ACCOUNT, REGION, table, "stream-19700101T000000Z");
        var checkpoint = new CaptureCheckpoint(streamArn, Instant.EPOCH.plusSeconds(1), Map.of(), List.of());
        var export = new ExportMetadata(
                ExportMetadata.FORMAT_VERSION,
                "stream-19700101T000000Z",
                ACCOUNT,
                REGION,
                table,
                Instant.EPOCH,
                Instant.EPOCH.plusSeconds(1),
                false,
                0,
                null);
        s3.putObject(
                b -> b.bucket("vault").key(prefix + VaultLayout.EXPORT_JSON),
                RequestBody.fromBytes(Json.toBytes(export)));
        s3.putObject(
                b -> b.bucket("vault").key(prefix + CaptureCheckpoint.FILE),
                RequestBody.fromBytes(Json.toBytes(checkpoint)));
    }
}
