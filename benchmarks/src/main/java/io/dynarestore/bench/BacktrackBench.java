package io.dynarestore.bench;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.planner.PlannerApplication;
import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.TopicRecorder;
import io.dynarestore.writer.WriterApplication;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * An in-place restore to T of a table of which 1% changed after T, by the full path and by
 * backtrack (ADR 0031), on the same data in the same run: time from request to completion, and
 * the DynamoDB read and write units each consumed (metered by a {@link CapacityProxy} in front of
 * dynalite). A first backtrack warms the JVM for both and is not compared. Every table is compared
 * with the image at T.
 *
 * <pre>
 * java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *   io.dynarestore.bench.BacktrackBench 1000000
 * </pre>
 */
public final class BacktrackBench {

    private static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();
    private static final VaultLayout LAYOUT = new VaultLayout("vault", "");
    private static final String TABLE = "orders";

    private BacktrackBench() {}

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int changed = Math.max(1, count / 100);
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var proxy = CapacityProxy.inFrontOf(dynalite.endpoint());
                var s3 = S3Server.start("vault")) {
            Instant t0 = Instant.now().minusSeconds(120).truncatedTo(ChronoUnit.SECONDS);
            Instant t = t0.plusSeconds(30);
            var items = new RandomItems(6, SHAPE);
            var changes = changes(items, count, changed, t0.plusSeconds(60));
            writeVault(s3, items, count, changes, t0);
            DynamoDbClient dynamo = dynalite.client();
            BenchFixtures.createTable(dynamo, TABLE);
            load(dynamo, items, count);
            apply(dynamo, changes);
            var image = imageAt(items, count);
            System.out.printf("table of %,d items, %,d changed after %s%n", count, changes.size(), t);

            // a first backtrack warms the JVM's code paths (planner, writer, clients) for both measured
            // restores, like a benchmark harness's warm-up iteration; it is printed, not compared
            double[] warmUp = run(kafka, proxy, s3, dynalite, "warm-up", t, true);
            check(dynamo, image, "warm-up backtrack");
            apply(dynamo, changes);
            double[] full = run(kafka, proxy, s3, dynalite, "full", t, false);
            check(dynamo, image, "full path");
            apply(dynamo, changes);
            double[] backtrack = run(kafka, proxy, s3, dynalite, "backtrack", t, true);
            check(dynamo, image, "backtrack");
            System.out.printf("warm-up backtrack (not compared): %.1f s%n", warmUp[0]);
            System.out.printf("full path: %.1f s, %,.0f read + %,.0f write units%n", full[0], full[1], full[2]);
            System.out.printf(
                    "backtrack: %.1f s, %,.0f read + %,.0f write units%n", backtrack[0], backtrack[1], backtrack[2]);
            System.out.printf(
                    "backtrack / full path: time %.4f, units %.4f%n",
                    backtrack[0] / full[0], (backtrack[1] + backtrack[2]) / (full[1] + full[2]));
        }
        System.exit(0);
    }

    /** 1% of the keys written after T: 80% overwritten, 10% deleted, 10% created. */
    private static List<ExportLine> changes(RandomItems items, int count, int changed, Instant at) {
        var random = new Random(1);
        var lines = new ArrayList<ExportLine>();
        long micros = at.getEpochSecond() * 1_000_000L;
        var touched = new HashSet<Integer>();
        while (touched.size() < changed) {
            touched.add(random.nextInt(count));
        }
        int n = 0;
        for (int i : touched) {
            var before = items.item(i);
            var keys = Map.of("pk", before.get("pk"), "sk", before.get("sk"));
            int kind = n++ % 10;
            if (kind == 0) {
                lines.add(ExportLine.change(keys, before, null, micros++));
            } else if (kind == 1) {
                var created = items.item(count + i);
                var createdKeys = Map.of("pk", created.get("pk"), "sk", created.get("sk"));
                lines.add(ExportLine.change(createdKeys, null, created, micros++));
            } else {
                var after = new HashMap<>(before);
                after.put("a0", AttributeValue.fromS("changed by the bad deploy"));
                lines.add(ExportLine.change(keys, before, after, micros++));
            }
        }
        return lines;
    }

    private static void writeVault(S3Server s3, RandomItems items, int count, List<ExportLine> changes, Instant t0)
            throws Exception {
        var backup = new BackupWriter(s3.client(), LAYOUT, "000000000000", "us-east-1", TABLE, "b", 50_000);
        try (var part = backup.openPart()) {
            for (int i = 0; i < count; i++) {
                part.write(items.item(i));
            }
        }
        backup.finish(BenchFixtures.description(TABLE, 100), List.of(), null, t0, null);
        var export = new IncrementalExportWriter(
                s3.client(),
                LAYOUT,
                "000000000000",
                "us-east-1",
                TABLE,
                "x1",
                t0,
                Instant.now().minusSeconds(1),
                10_000);
        try (var part = export.openPart()) {
            changes.forEach(part::write);
        }
        export.finish();
    }

    private static void load(DynamoDbClient dynamo, RandomItems items, int count) throws InterruptedException {
        var threads = new ArrayList<Thread>();
        for (int p = 0; p < 4; p++) {
            int part = p;
            var thread = new Thread(() -> {
                var batch = new ArrayList<WriteRequest>(25);
                for (int i = part; i < count; i += 4) {
                    batch.add(WriteRequest.builder()
                            .putRequest(PutRequest.builder().item(items.item(i)).build())
                            .build());
                    if (batch.size() == 25) {
                        BenchFixtures.writeAll(dynamo, TABLE, batch);
                    }
                }
                BenchFixtures.writeAll(dynamo, TABLE, batch);
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** The bad deploy: writes the changes into the table (straight into dynalite, unmetered). */
    private static void apply(DynamoDbClient dynamo, List<ExportLine> changes) {
        var batch = new ArrayList<WriteRequest>(25);
        for (ExportLine change : changes) {
            batch.add(
                    change.newImage() == null
                            ? WriteRequest.builder()
                                    .deleteRequest(DeleteRequest.builder()
                                            .key(change.keys())
                                            .build())
                                    .build()
                            : WriteRequest.builder()
                                    .putRequest(PutRequest.builder()
                                            .item(change.newImage())
                                            .build())
                                    .build());
            if (batch.size() == 25) {
                BenchFixtures.writeAll(dynamo, TABLE, batch);
            }
        }
        BenchFixtures.writeAll(dynamo, TABLE, batch);
    }

    private static TreeMap<String, String> imageAt(RandomItems items, int count) {
        var image = new TreeMap<String, String>();
        for (int i = 0; i < count; i++) {
            var item = items.item(i);
            image.put(ItemDigests.key(item, List.of("pk", "sk")), ItemDigests.digest(item));
        }
        return image;
    }

    private static void check(DynamoDbClient dynamo, TreeMap<String, String> image, String how) {
        var table = ItemDigests.ofTable(dynamo, TABLE, List.of("pk", "sk"));
        if (!table.equals(image)) {
            throw new IllegalStateException("the " + how + " left the table unequal to its image at T (" + table.size()
                    + " items, " + image.size() + " expected)");
        }
    }

    /**
     * One in-place restore to T by a planner with backtrack on or off: seconds from the request's
     * send to the planner's {@code RestoreCompleted}, read units, write units. It starts once
     * dynalite is quiet (the last restore's or the load's work done) and with a producer that has
     * its metadata, so that neither the bench's own set-up nor leftover work is timed.
     */
    private static double[] run(
            KafkaBroker kafka,
            CapacityProxy proxy,
            S3Server s3,
            Dynalite dynalite,
            String restoreId,
            Instant t,
            boolean backtrack)
            throws Exception {
        String[] common = BenchFixtures.serviceArgs(kafka, proxy.endpoint(), s3);
        List<ConfigurableApplicationContext> services = new ArrayList<>();
        services.add(PlannerApplication.builder()
                .run(BenchFixtures.concat(
                        common,
                        "--planner.capacity.raise=false",
                        "--planner.pitr.backtrack=" + backtrack,
                        // the benchmark writes the change log itself: no capture flushes a tail for the restore
                        "--planner.pitr.tail-wait=0s")));
        services.add(WriterApplication.builder().run(BenchFixtures.liftedWriter(common)));
        try (var producer = BenchFixtures.producer(kafka)) {
            Thread.sleep(3_000);
            producer.partitionsFor(Topic.REQUESTS.topicName());
            BenchFixtures.awaitQuiet(dynalite.process().pid(), Duration.ofMinutes(2));
            long reads = total(proxy.readPerSecond(TABLE));
            long writes = proxy.consumed(TABLE);
            Instant sent = Instant.now();
            producer.send(new ProducerRecord<>(
                            Topic.REQUESTS.topicName(),
                            restoreId,
                            "{\"restoreId\":\"" + restoreId + "\",\"source\":{\"table\":\"" + TABLE
                                    + "\",\"pointInTime\":\"" + t + "\"},\"destination\":{\"type\":\"IN_PLACE\"}}"))
                    .get();
            var end = PitrMemoryBench.awaitEnd(kafka.bootstrapServers(), restoreId, Duration.ofMinutes(60));
            if (!"RestoreCompleted".equals(end.get("type"))) {
                throw new IllegalStateException(restoreId + " did not complete: " + end);
            }
            double seconds =
                    Duration.between(sent, Instant.parse(end.get("occurredAt"))).toMillis() / 1e3;
            printMilestones(kafka, restoreId);
            return new double[] {seconds, total(proxy.readPerSecond(TABLE)) - reads, proxy.consumed(TABLE) - writes};
        } finally {
            for (var service : services) {
                service.close();
            }
        }
    }

    /** Where the restore's time went: each step's first event, in seconds after the request was accepted. */
    private static void printMilestones(KafkaBroker kafka, String restoreId) {
        var events =
                TopicRecorder.readToEnd(kafka.bootstrapServers(), Topic.STATUS.topicName(), Duration.ofSeconds(30))
                        .stream()
                        .filter(e -> restoreId.equals(e.restoreId()))
                        .toList();
        Instant accepted = null;
        var firsts = new LinkedHashMap<String, Instant>();
        Instant lastSegment = null;
        for (var e : events) {
            Instant at = Instant.parse(e.json().get("occurredAt").asString());
            if (accepted == null) {
                accepted = at;
            }
            firsts.putIfAbsent(e.type(), at);
            if ("SegmentCompleted".equals(e.type())) {
                lastSegment = at;
            }
        }
        var line = new StringBuilder(
                restoreId + " milestones (s after " + events.get(0).type() + "):");
        for (var f : firsts.entrySet()) {
            if (!f.getKey().equals("SegmentProgressed")) {
                line.append(String.format(
                        " %s %.2f",
                        f.getKey(), Duration.between(accepted, f.getValue()).toMillis() / 1e3));
            }
        }
        if (lastSegment != null) {
            line.append(String.format(
                    " lastSegmentCompleted %.2f",
                    Duration.between(accepted, lastSegment).toMillis() / 1e3));
        }
        System.out.println(line);
    }

    private static long total(Map<Long, Long> perSecond) {
        return perSecond.values().stream().mapToLong(Long::longValue).sum();
    }
}
