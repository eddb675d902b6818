package io.dynarestore.bench;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.pitr.KeyRange;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.planner.PlannerApplication;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.UnreliableDynamo;
import io.dynarestore.writer.WriterApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Writer heap during a point-in-time restore of a 1,000,000-item base with 100,000 changes
 * (issue #3): the planner stages the delta, an item-writer process with {@code -Xmx512m} writes
 * base and delta through a proxy that discards writes (dynalite would need ~1.5 GB for the
 * items), and the writer's heap is sampled from its metrics endpoint throughout.
 *
 * <pre>./mvnw -q -DskipTests install && java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.PitrMemoryBench [baseItems] [changes]</pre>
 */
public final class PitrMemoryBench {

    private static final long SECOND = 1_000_000L;

    public static void main(String[] args) throws Exception {
        int baseItems = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int changes = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        String heap = System.getProperty("writer.heap", "512m");
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var proxy = UnreliableDynamo.inFrontOf(dynalite.endpoint(), 1, 0, 0);
                var s3 = S3Server.start("vault")) {
            long t0 = (Instant.now().minus(Duration.ofHours(3)).getEpochSecond()) * SECOND;
            var table = "bench";
            var items = new RandomItems(2026, RandomItems.Shape.simple());
            long started = System.nanoTime();
            writeVault(s3, table, items, baseItems, changes, t0);
            System.out.printf(
                    "vault: %,d base items and %,d changes written in %.1f s%n",
                    baseItems, changes, (System.nanoTime() - started) / 1e9);

            var planner = PlannerApplication.builder()
                    .run(
                            "--spring.profiles.active=local",
                            "--server.port=0",
                            "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                            "--DYNAMODB_ENDPOINT=" + dynalite.endpoint(),
                            "--S3_ENDPOINT=" + s3.endpoint());
            int writerPort = Ports.free();
            Path log = Path.of("target", "bench-writer.log").toAbsolutePath();
            Files.createDirectories(log.getParent());
            Process writer = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xmx" + heap,
                            "-cp",
                            System.getProperty("java.class.path"),
                            WriterApplication.class.getName(),
                            "--spring.profiles.active=local",
                            "--server.port=" + writerPort,
                            "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                            "--DYNAMODB_ENDPOINT=" + proxy.endpoint(),
                            "--S3_ENDPOINT=" + s3.endpoint())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                Ports.awaitAccepting(writerPort, Duration.ofSeconds(60), "item-writer");
                // the first restore creates the table in dynalite; only then are writes discarded
                Instant point = Instant.ofEpochSecond(t0 / SECOND + 3_599);
                var peak = new AtomicLong();
                var sampler = new Thread(() -> sample(writerPort, peak));
                sampler.setDaemon(true);
                sampler.start();
                proxy.discardingWrites();
                long restoreStarted = System.nanoTime();
                String restoreId = "bench-1";
                try (var producer = new KafkaProducer<String, String>(Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                    producer.send(
                                    new ProducerRecord<>(
                                            Topic.REQUESTS.topicName(),
                                            restoreId,
                                            "{\"restoreId\":\""
                                                    + restoreId + "\",\"source\":{\"table\":\"" + table
                                                    + "\",\"pointInTime\":\"" + point
                                                    + "\"},\"destination\":{\"type\":\"NEW_TABLE\",\"tableName\":\"bench-at\"}}"))
                            .get();
                }
                var end = awaitEnd(kafka.bootstrapServers(), restoreId, Duration.ofMinutes(30));
                double seconds = (System.nanoTime() - restoreStarted) / 1e9;
                sampler.interrupt();
                System.out.printf("restore %s: %s%n", end.getOrDefault("type", "?"), end);
                System.out.printf(
                        "%,d items written, %,d writes reached the proxy, %.1f s (%.0f lines/s)%n",
                        Long.parseLong(end.getOrDefault("itemsWritten", "0")),
                        proxy.discardedItems(),
                        seconds,
                        (baseItems + changes) / seconds);
                System.out.printf("item-writer heap: peak used %,d MB with -Xmx%s%n", peak.get() / (1024 * 1024), heap);
            } finally {
                writer.destroy();
                writer.waitFor();
                planner.close();
            }
        }
    }

    static void writeVault(S3Server s3, String table, RandomItems items, int baseItems, int changes, long t0)
            throws Exception {
        writeVault(s3, table, items, baseItems, changes, t0, true);
    }

    /** @param sliced whether the change files are cut in key slices, as the protector writes them (ADR 0045) */
    static void writeVault(
            S3Server s3, String table, RandomItems items, int baseItems, int changes, long t0, boolean sliced)
            throws Exception {
        var layout = new VaultLayout("vault", "");
        var description = SdkJson.fromJson(
                "{\"TableName\":\"" + table + "\",\"AttributeDefinitions\":["
                        + "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
                        + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
                        + "\"TableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/" + table + "\","
                        + "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":100,\"WriteCapacityUnits\":100}}",
                TableDescription.builder());
        var base = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", table, "base", 10_000);
        var threads = new ArrayList<Thread>();
        for (int t = 0; t < 2; t++) {
            int part = t;
            var thread = new Thread(() -> {
                try (var p = base.openPart()) {
                    for (int i = part; i < baseItems; i += 2) {
                        p.write(items.item(i));
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        base.finish(description, List.of(), null, Instant.ofEpochSecond(t0 / SECOND), null);
        // the changes: an hour of overwrites, deletes and new items, in ten exports of six minutes
        Random r = new Random(7);
        long span = 3_600 * SECOND;
        for (int e = 0; e < 10; e++) {
            long from = t0 + e * span / 10;
            long to = t0 + (e + 1) * span / 10;
            var export = new IncrementalExportWriter(
                    s3.client(),
                    layout,
                    "000000000000",
                    "us-east-1",
                    table,
                    "x" + e,
                    Instant.ofEpochSecond(from / SECOND),
                    Instant.ofEpochSecond(to / SECOND),
                    10_000);
            if (sliced) {
                export.keySlices(KeyRange.slicer(List.of("pk", "sk"), IncrementalExportWriter.KEY_SLICES));
            }
            try (var part = export.openPart()) {
                for (int c = 0; c < changes / 10; c++) {
                    long ts = from + (long) c * (to - from) / (changes / 10);
                    long index = r.nextInt(10) == 0 ? baseItems + r.nextInt(changes) : r.nextInt(baseItems);
                    Map<String, AttributeValue> item = items.item(index, 1 + r.nextInt(3));
                    Map<String, AttributeValue> keys = Map.of("pk", item.get("pk"), "sk", item.get("sk"));
                    part.write(
                            r.nextInt(8) == 0
                                    ? ExportLine.change(keys, null, null, ts)
                                    : ExportLine.change(keys, null, item, ts));
                }
            }
            export.finish();
        }
    }

    /** Samples the writer's heap in use (the sum of its heap pools) every 200 ms, keeping the peak. */
    static void sample(int port, AtomicLong peak) {
        var http = HttpClient.newHttpClient();
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .build();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                long used = 0;
                for (String line : http.send(request, HttpResponse.BodyHandlers.ofString())
                        .body()
                        .split("\n")) {
                    if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                        used += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                    }
                }
                peak.accumulateAndGet(used, Math::max);
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // not up yet, or gone
            }
        }
    }

    /** A terminal status event's top-level fields, with {@code publishedAt}: epoch ms, its producer's clock. */
    static Map<String, String> endFields(byte[] event, long publishedAt) {
        var fields = new LinkedHashMap<String, String>();
        fields.put("publishedAt", String.valueOf(publishedAt));
        Json.mapper().readTree(event).properties().forEach(e -> {
            if (e.getValue().isValueNode()) {
                fields.put(e.getKey(), e.getValue().asString());
            }
        });
        return fields;
    }

    /** Waits for the restore's RestoreCompleted or RestoreFailed event; returns its fields and {@code publishedAt}. */
    static Map<String, String> awaitEnd(String bootstrap, String restoreId, Duration timeout) {
        try (var consumer = BenchFixtures.statusFromStart(bootstrap)) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    var event = Messages.statusEvent(record.value());
                    if (event != null && restoreId.equals(event.restoreId()) && event.terminal()) {
                        return endFields(record.value(), record.timestamp());
                    }
                }
            }
            throw new IllegalStateException("restore " + restoreId + " did not end within " + timeout);
        }
    }
}
