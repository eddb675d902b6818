package io.dynarestore.bench;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.RollbackCompleted;
import io.dynarestore.contracts.status.RollbackFailed;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.exporter.files.CsvExport;
import io.dynarestore.planner.PlannerApplication;
import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.writer.WriterApplication;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The item-writer's four goals of issue #6, each as a ratio against a baseline measured in the
 * same run:
 * <ol>
 *   <li>{@code reader}: scanning and filtering a backup's data files with the vault reader vs only
 *       inflating the same files with {@link GZIPInputStream} (goal at least 0.8);</li>
 *   <li>{@code ceiling}: an end-to-end restore into dynalite vs a tight BatchWriteItem client's
 *       ceiling against the same dynalite (goal at least 0.9);</li>
 *   <li>{@code budget}: WCU consumed vs the budget with 1, 2 and 4 writer replicas, measured by
 *       {@link CapacityProxy} (goal within 5%, no second above 110%);</li>
 *   <li>{@code heap}: the peak heap of a writer process ({@code -Xmx512m}) restoring 10,000,000
 *       items through the proxy in discarding mode (goal flat, at most 512 MB).</li>
 * </ol>
 * and, on its own ({@code journal}), what the undo journal of issue #11 costs: a restore into an
 * existing table (read, journal, write) and its dry run (read only) against the same restore into
 * a new table (write only), the rollback's rate, and the journal's objects and bytes per item.
 *
 * <pre>./mvnw -q -DskipTests install && java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.WriterBench [reader|ceiling|budget|heap|all] [items]</pre>
 */
public final class WriterBench {

    private static final VaultLayout LAYOUT = new VaultLayout("vault", "");
    private static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "all";
        boolean all = which.equals("all");
        if (all || which.equals("reader")) {
            reader(args.length > 1 ? Integer.parseInt(args[1]) : 400_000);
        }
        if (all || which.equals("ceiling")) {
            ceiling(args.length > 1 ? Integer.parseInt(args[1]) : 60_000);
        }
        if (all || which.equals("budget")) {
            budget(args.length > 1 ? Integer.parseInt(args[1]) : 12_000);
        }
        if (all || which.equals("heap")) {
            heap(args.length > 1 ? Integer.parseInt(args[1]) : 10_000_000);
        }
        if (which.equals("journal")) {
            journal(args.length > 1 ? Integer.parseInt(args[1]) : 30_000);
        }
        if (which.equals("export")) {
            export(args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000);
        }
        System.exit(0);
    }

    // ---- 1. reader vs inflate ----

    static void reader(int count) throws Exception {
        try (var s3 = S3Server.start("vault")) {
            Backup backup = writeBackup(s3, "reader", count, 50_000, 2);
            // the compressed files in memory, so that S3 is not what is measured
            var files = new ArrayList<byte[]>();
            for (ManifestFile f : backup.files()) {
                files.add(s3.client()
                        .getObjectAsBytes(b -> b.bucket("vault").key(f.dataFileS3Key()))
                        .asByteArray());
            }
            long compressed = files.stream().mapToLong(b -> b.length).sum();
            var filter = RecordFilter.compile(
                    new Scope.Records(
                            List.of(new Scope.KeyFilter(new Scope.Condition("BeginsWith", List.of("p1")), null)),
                            List.of()),
                    KeySchema.of(List.of("pk", "sk"), List.of("S", "N")));
            double inflate = 0;
            double scan = 0;
            double tokenize = 0;
            long matched = 0;
            for (int round = 0; round < 4; round++) {
                long t0 = System.nanoTime();
                long bytes = 0;
                byte[] buffer = new byte[64 * 1024];
                for (byte[] f : files) {
                    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(f), 64 * 1024)) {
                        for (int n; (n = in.read(buffer)) > 0; ) {
                            bytes += n;
                        }
                    }
                }
                long t1 = System.nanoTime();
                matched = 0;
                for (byte[] f : files) {
                    try (var r = new DataFileReader("f", new ByteArrayInputStream(f), null)) {
                        for (ExportLine line; (line = r.next()) != null; ) {
                            if (filter.matches(line.item())) {
                                matched++;
                            }
                        }
                    }
                }
                long t2 = System.nanoTime();
                // what any JSON reader pays at least: inflating and tokenizing, building nothing
                var factory = new JsonFactory();
                for (byte[] f : files) {
                    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(f), 64 * 1024);
                            var p = factory.createParser(ObjectReadContext.empty(), in)) {
                        while (p.nextToken() != null) {
                            // tokens only
                        }
                    }
                }
                long t3 = System.nanoTime();
                if (round > 0) { // the first round warms the JIT up
                    inflate += (t1 - t0) / 1e9;
                    scan += (t2 - t1) / 1e9;
                    tokenize += (t3 - t2) / 1e9;
                }
                if (round == 0) {
                    System.out.printf(
                            "reader: %,d items, %,d bytes compressed, %,d inflated%n", count, compressed, bytes);
                }
            }
            System.out.printf(
                    "reader: inflate only %.0f MB/s, scan+filter %.0f MB/s (%,d matches), of the "
                            + "compressed files%n",
                    compressed * 3 / inflate / 1e6, compressed * 3 / scan / 1e6, matched);
            System.out.printf(
                    "reader: inflate and tokenize only (no objects) %.0f MB/s, a ceiling for any JSON "
                            + "reader: %.2f of inflate%n",
                    compressed * 3 / tokenize / 1e6, inflate / tokenize);
            System.out.printf("RATIO reader scan+filter / inflate = %.2f (goal >= 0.8)%n", inflate / scan);
        }
    }

    // ---- 2. end-to-end vs a tight BatchWriteItem client ----

    static void ceiling(int count) throws Exception {
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var s3 = S3Server.start("vault")) {
            writeBackup(s3, "ceiling", count, 2_000, 2);
            var items = new RandomItems(6, SHAPE);
            DynamoDbClient dynamo = dynalite.client();
            createTable(dynamo, "tight");
            int threads = 4;
            long t0 = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            var futures = new ArrayList<Future<?>>();
            for (int t = 0; t < threads; t++) {
                int part = t;
                futures.add(pool.submit(() -> {
                    var batch = new ArrayList<WriteRequest>(25);
                    for (int i = part; i < count; i += threads) {
                        batch.add(WriteRequest.builder()
                                .putRequest(
                                        PutRequest.builder().item(items.item(i)).build())
                                .build());
                        if (batch.size() == 25) {
                            writeAll(dynamo, "tight", batch);
                        }
                    }
                    writeAll(dynamo, "tight", batch);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            pool.shutdown();
            double tight = count / ((System.nanoTime() - t0) / 1e9);
            System.out.printf("ceiling: a tight BatchWriteItem client (%d threads): %,.0f items/s%n", threads, tight);

            List<ConfigurableApplicationContext> services = new ArrayList<>();
            String[] common = {
                "--spring.profiles.active=local",
                "--server.port=0",
                "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                "--DYNAMODB_ENDPOINT=" + dynalite.endpoint(),
                "--S3_ENDPOINT=" + s3.endpoint()
            };
            services.add(PlannerApplication.builder().run(common));
            services.add(WriterApplication.builder()
                    .run(concat(
                            common,
                            "--writer.consumers=" + threads,
                            "--writer.budget.on-demand-target=1000000",
                            "--writer.budget.on-demand-initial-peak=1000000")));
            try {
                Thread.sleep(3_000);
                long started = System.nanoTime();
                submit(kafka, "ceiling-1", "ceiling", "ceiling-restored");
                var end = PitrMemoryBench.awaitEnd(kafka.bootstrapServers(), "ceiling-1", Duration.ofMinutes(20));
                double seconds = (System.nanoTime() - started) / 1e9;
                double restore = count / seconds;
                System.out.printf(
                        "ceiling: end-to-end restore (planner, 1 writer, %d segments at once): %,.0f items/s"
                                + " (%s, %s items)%n",
                        threads, restore, end.get("type"), end.get("itemsWritten"));
                System.out.printf("RATIO end-to-end / tight client = %.2f (goal >= 0.9)%n", restore / tight);
            } finally {
                services.forEach(ConfigurableApplicationContext::close);
            }
        }
    }

    // ---- the undo journal's cost (issue #11) ----

    static void journal(int count) throws Exception {
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var s3 = S3Server.start("vault")) {
            writeBackup(s3, "undo", count, 2_000, 2);
            DynamoDbClient dynamo = dynalite.client();
            createTable(dynamo, "undo-existing");
            List<ConfigurableApplicationContext> services = new ArrayList<>();
            String[] common = {
                "--spring.profiles.active=local",
                "--server.port=0",
                "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                "--DYNAMODB_ENDPOINT=" + dynalite.endpoint(),
                "--S3_ENDPOINT=" + s3.endpoint()
            };
            services.add(PlannerApplication.builder()
                    .run(concat(
                            common,
                            "--planner.capacity.raise=false",
                            "--planner.rollback.write-units-per-second=1000000")));
            services.add(WriterApplication.builder()
                    .run(concat(
                            common,
                            "--writer.consumers=4",
                            "--writer.budget.on-demand-target=1000000",
                            "--writer.budget.on-demand-initial-peak=1000000",
                            "--writer.budget.provisioned-share=1000")));
            try {
                Thread.sleep(3_000);
                double fresh =
                        timed(kafka, "undo-new", "{\"type\":\"NEW_TABLE\",\"tableName\":\"undo-new\"}", false, count);
                double dry = timed(
                        kafka,
                        "undo-dry",
                        "{\"type\":\"EXISTING_TABLE\",\"tableName\":" + "\"undo-existing\"}",
                        true,
                        count);
                double journaled = timed(
                        kafka,
                        "undo-real",
                        "{\"type\":\"EXISTING_TABLE\",\"tableName\":" + "\"undo-existing\"}",
                        false,
                        count);
                long[] created = journalSize(s3, "undo-real");
                double rollback = rollBack(kafka, "undo-real", count);
                long left = dynamo.scan(b -> b.tableName("undo-existing").select("COUNT"))
                        .count();
                // then every key held in another version: the restore overwrites them all
                var others = new RandomItems(99, SHAPE);
                var batch = new ArrayList<WriteRequest>(25);
                for (int i = 0; i < count; i++) {
                    batch.add(WriteRequest.builder()
                            .putRequest(
                                    PutRequest.builder().item(others.item(i)).build())
                            .build());
                    if (batch.size() == 25) {
                        writeAll(dynamo, "undo-existing", batch);
                        batch.clear();
                    }
                }
                writeAll(dynamo, "undo-existing", batch);
                double overwriting = timed(
                        kafka,
                        "undo-over",
                        "{\"type\":\"EXISTING_TABLE\",\"tableName\":"
                                + "\"undo-existing\"},\"scope\":{\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":"
                                + "{\"condition\":\"BeginsWith\",\"values\":[\"p\"]}}]}",
                        false,
                        count);
                long[] overwritten = journalSize(s3, "undo-over");
                double rollbackOver = rollBack(kafka, "undo-over", count);
                System.out.printf(
                        "journal: new table %,.0f items/s; existing empty table: dry run %,.0f items/s, "
                                + "journaled %,.0f items/s, rollback %,.0f items/s (%d items left after it); existing table "
                                + "of other versions: journaled %,.0f items/s, rollback %,.0f items/s%n",
                        fresh, dry, journaled, rollback, left, overwriting, rollbackOver);
                System.out.printf(
                        "journal of creates: %,d objects (%.1f per 1,000 items), %,d bytes (%.1f per item)%n",
                        created[0], created[0] * 1000.0 / count, created[1], (double) created[1] / count);
                System.out.printf(
                        "journal of overwrites: %,d objects (%.1f per 1,000 items), %,d bytes (%.1f per " + "item)%n",
                        overwritten[0],
                        overwritten[0] * 1000.0 / count,
                        overwritten[1],
                        (double) overwritten[1] / count);
                System.out.printf(
                        "RATIO journaled restore into an existing empty table / restore into a new table " + "= %.2f%n",
                        journaled / fresh);
                System.out.printf(
                        "RATIO journaled restore overwriting every item / restore into a new table = %.2f%n",
                        overwriting / fresh);
                System.out.printf("RATIO dry run / restore into a new table = %.2f%n", dry / fresh);
                System.out.printf(
                        "RATIO rollback of the overwrites / restore into a new table = %.2f%n", rollbackOver / fresh);
            } finally {
                services.forEach(ConfigurableApplicationContext::close);
            }
        }
    }

    /** The undo journal of a restore: its objects and bytes. */
    static long[] journalSize(S3Server s3, String restoreId) {
        long objects = 0;
        long bytes = 0;
        for (var page :
                s3.client().listObjectsV2Paginator(b -> b.bucket("vault").prefix("_journal/" + restoreId + "/"))) {
            for (var o : page.contents()) {
                objects++;
                bytes += o.size();
            }
        }
        return new long[] {objects, bytes};
    }

    /** Rolls a restore back over Kafka; returns the items per second. */
    static double rollBack(KafkaBroker kafka, String restoreId, int count) throws Exception {
        long started = System.nanoTime();
        try (var producer = new KafkaProducer<String, String>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            producer.send(new ProducerRecord<>(
                            Topic.COMMANDS.topicName(),
                            restoreId,
                            "{\"type\":\"RollbackRequested\",\"restoreId\":\"" + restoreId + "\",\"eventId\":\"rb-"
                                    + restoreId + "\",\"schemaVersion\":1,\"occurredAt\":\"" + Instant.now() + "\"}"))
                    .get();
        }
        awaitRollback(kafka.bootstrapServers(), restoreId, Duration.ofMinutes(20));
        return count / ((System.nanoTime() - started) / 1e9);
    }

    /** Items per second of one restore of the whole backup of table undo into {@code destination}. */
    static double timed(KafkaBroker kafka, String restoreId, String destination, boolean dryRun, int count)
            throws Exception {
        long started = System.nanoTime();
        try (var producer = new KafkaProducer<String, String>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            producer.send(new ProducerRecord<>(
                            Topic.REQUESTS.topicName(),
                            restoreId,
                            "{\"restoreId\":\"" + restoreId
                                    + "\",\"source\":{\"table\":\"undo\",\"backupId\":\"b\"},\"destination\":"
                                    + destination
                                    + (dryRun ? ",\"dryRun\":true" : "") + "}"))
                    .get();
        }
        var end = PitrMemoryBench.awaitEnd(kafka.bootstrapServers(), restoreId, Duration.ofMinutes(20));
        if (!"RestoreCompleted".equals(end.get("type"))) {
            throw new IllegalStateException(restoreId + " did not complete: " + end);
        }
        return count / ((System.nanoTime() - started) / 1e9);
    }

    static void awaitRollback(String bootstrap, String restoreId, Duration timeout) {
        try (var consumer = new KafkaConsumer<String, byte[]>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
            var partitions = consumer.partitionsFor(Topic.STATUS.topicName()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (var record : consumer.poll(Duration.ofMillis(200))) {
                    var event = Messages.statusEvent(record.value());
                    if (event instanceof RollbackCompleted && restoreId.equals(event.restoreId())) {
                        return;
                    }
                    if (event instanceof RollbackFailed f && restoreId.equals(event.restoreId())) {
                        throw new IllegalStateException("rollback failed: " + f.reason());
                    }
                }
            }
            throw new IllegalStateException("rollback of " + restoreId + " did not end within " + timeout);
        }
    }

    // ---- 3. consumed WCU vs budget with 1, 2 and 4 replicas ----

    static void budget(int count) throws Exception {
        long budget = 400;
        for (int replicas : new int[] {1, 2, 4}) {
            try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                    var dynalite = Dynalite.start();
                    var s3 = S3Server.start("vault");
                    var proxy = CapacityProxy.inFrontOf(dynalite.endpoint())) {
                // many small segments, so that every replica has work until near the end
                writeBackup(s3, "budget", count, 250, budget);
                List<ConfigurableApplicationContext> services = new ArrayList<>();
                String endpoint = proxy.endpoint().toString();
                String[] common = {
                    "--spring.profiles.active=local",
                    "--server.port=0",
                    "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                    "--DYNAMODB_ENDPOINT=" + endpoint,
                    "--S3_ENDPOINT=" + s3.endpoint()
                };
                services.add(PlannerApplication.builder().run(concat(common, registry("planner", endpoint))));
                for (int r = 0; r < replicas; r++) {
                    services.add(WriterApplication.builder()
                            .run(concat(
                                    concat(common, registry("writer", endpoint)),
                                    "--writer.consumers=2",
                                    "--writer.budget.provisioned-share=1.0")));
                }
                try {
                    Thread.sleep(6_000); // the writers' group settles
                    submit(kafka, "budget-" + replicas, "budget", "budget-restored");
                    var end = PitrMemoryBench.awaitEnd(
                            kafka.bootstrapServers(), "budget-" + replicas, Duration.ofMinutes(20));
                    SortedMap<Long, Long> perSecond = proxy.consumedPerSecond("budget-restored");
                    var values = new ArrayList<>(perSecond.values());
                    // steady state: without the first and the last second (partial seconds)
                    var steady = values.subList(1, Math.max(2, values.size() - 1));
                    double mean =
                            steady.stream().mapToLong(Long::longValue).average().orElse(0);
                    long peak = values.stream().mapToLong(Long::longValue).max().orElse(0);
                    long total = values.stream().mapToLong(Long::longValue).sum();
                    double overall = (double) total / (perSecond.lastKey() - perSecond.firstKey() + 1);
                    System.out.printf(
                            "budget: %d replica(s): %s %s items, %,d WCU in %d s; mean %.0f WCU/s steady, "
                                    + "%.0f overall, busiest second %d, throttled %d%n",
                            replicas,
                            end.get("type"),
                            end.get("itemsWritten"),
                            total,
                            values.size(),
                            mean,
                            overall,
                            peak,
                            proxy.throttledCalls());
                    System.out.printf(
                            "RATIO consumed/budget %d replica(s) = %.3f steady, %.3f overall; busiest "
                                    + "second %.3f (goal 0.95-1.05, busiest <= 1.10)%n",
                            replicas, mean / budget, overall / budget, (double) peak / budget);
                } finally {
                    for (int i = services.size() - 1; i >= 0; i--) {
                        services.get(i).close();
                    }
                }
            }
        }
    }

    static String[] registry(String prefix, String endpoint) {
        return new String[] {
            "--" + prefix + ".aws.accounts[0].id=000000000000",
            "--" + prefix + ".aws.accounts[0].regions.us-east-1.dynamodb-endpoint=" + endpoint,
            "--" + prefix + ".aws.accounts[0].regions.us-east-1.enforced-capacity=true"
        };
    }

    // ---- 4. heap over 10,000,000 items ----

    static void heap(int count) throws Exception {
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var s3 = S3Server.start("vault");
                var proxy = CapacityProxy.inFrontOf(dynalite.endpoint())) {
            long t0 = System.nanoTime();
            // a table provisioned high enough that the proxy never throttles it: only memory is measured
            writeBackup(s3, "heap", count, 100_000, 40_000);
            System.out.printf("heap: backup of %,d items written in %.0f s%n", count, (System.nanoTime() - t0) / 1e9);
            var planner = PlannerApplication.builder()
                    .run(
                            "--spring.profiles.active=local",
                            "--server.port=0",
                            "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                            "--DYNAMODB_ENDPOINT=" + proxy.endpoint(),
                            "--S3_ENDPOINT=" + s3.endpoint());
            int port = Ports.free();
            Path log = Path.of("target", "bench-heap-writer.log").toAbsolutePath();
            Files.createDirectories(log.getParent());
            Process writer = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xmx512m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            WriterApplication.class.getName(),
                            "--spring.profiles.active=local",
                            "--server.port=" + port,
                            "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                            "--DYNAMODB_ENDPOINT=" + proxy.endpoint(),
                            "--S3_ENDPOINT=" + s3.endpoint(),
                            "--writer.budget.on-demand-target=1000000",
                            "--writer.budget.on-demand-initial-peak=1000000")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                Ports.awaitAccepting(port, Duration.ofSeconds(60), "item-writer");
                var peak = new AtomicLong();
                var samples = new ArrayList<Long>();
                var sampler = new Thread(() -> {
                    var last = new AtomicLong();
                    while (!Thread.currentThread().isInterrupted()) {
                        var p = new AtomicLong();
                        var one = new Thread(() -> PitrMemoryBench.sample(port, p));
                        one.start();
                        try {
                            Thread.sleep(1_000);
                        } catch (InterruptedException e) {
                            one.interrupt();
                            return;
                        }
                        one.interrupt();
                        synchronized (samples) {
                            samples.add(p.get());
                        }
                        peak.accumulateAndGet(p.get(), Math::max);
                        last.set(p.get());
                    }
                });
                sampler.setDaemon(true);
                sampler.start();
                proxy.discardingWrites();
                long started = System.nanoTime();
                submit(kafka, "heap-1", "heap", "heap-restored");
                var end = PitrMemoryBench.awaitEnd(kafka.bootstrapServers(), "heap-1", Duration.ofMinutes(60));
                double seconds = (System.nanoTime() - started) / 1e9;
                sampler.interrupt();
                long firstQuarter;
                long lastQuarter;
                synchronized (samples) {
                    int q = Math.max(1, samples.size() / 4);
                    firstQuarter = samples.subList(0, q).stream()
                            .mapToLong(Long::longValue)
                            .max()
                            .orElse(0);
                    lastQuarter = samples.subList(samples.size() - q, samples.size()).stream()
                            .mapToLong(Long::longValue)
                            .max()
                            .orElse(0);
                }
                System.out.printf(
                        "heap: %s, %s items written, %,d reached the proxy, %.0f s (%,.0f items/s)%n",
                        end.get("type"), end.get("itemsWritten"), proxy.acceptedItems(), seconds, count / seconds);
                System.out.printf(
                        "heap: writer peak %,d MB (first quarter of the run %,d MB, last quarter %,d MB)%n",
                        peak.get() >> 20, firstQuarter >> 20, lastQuarter >> 20);
                System.out.printf(
                        "RATIO heap peak / 512 MB = %.2f; last quarter / first quarter = %.2f (goal <= 1, " + "flat)%n",
                        (peak.get() >> 20) / 512.0, (double) lastQuarter / Math.max(1, firstQuarter));
            } finally {
                writer.destroy();
                writer.waitFor();
                planner.close();
            }
        }
    }

    // ---- granular recovery: a CSV export's heap does not grow with its size (issue #7) ----

    static void export(int count) throws Exception {
        Path dir = Files.createTempDirectory("bench-s3");
        try (var s3 = S3Server.start(Ports.free(), dir, "vault", true)) {
            Backup backup = writeBackup(s3, "export", count, 100_000, 2);
            var export = new CsvExport(s3.client(), 8 * 1024 * 1024);
            var memory = ManagementFactory.getMemoryMXBean();
            for (long cap : new long[] {count / 10, count}) {
                System.gc();
                var peak = new AtomicLong();
                var sampler = new Thread(() -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                        try {
                            Thread.sleep(50);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                sampler.setDaemon(true);
                sampler.start();
                long t0 = System.nanoTime();
                var summary = export.export(
                        backup, null, List.of("pk", "sk"), cap, "vault", "_exports/bench-" + cap + ".csv", n -> {});
                sampler.interrupt();
                System.out.printf(
                        "export: %,d items, %,d bytes in %.1f s; heap peak %,d MB%n",
                        summary.items(), summary.bytes(), (System.nanoTime() - t0) / 1e9, peak.get() >> 20);
            }
        }
    }

    // ---- helpers ----

    static String[] concat(String[] a, String... b) {
        var all = new ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(new String[0]);
    }

    static void submit(KafkaBroker kafka, String restoreId, String table, String into) throws Exception {
        try (var producer = new KafkaProducer<String, String>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            producer.send(new ProducerRecord<>(
                            Topic.REQUESTS.topicName(),
                            restoreId,
                            "{\"restoreId\":\"" + restoreId
                                    + "\",\"source\":{\"table\":\"" + table
                                    + "\",\"backupId\":\"b\"},\"destination\":{\"type\":"
                                    + "\"NEW_TABLE\",\"tableName\":\"" + into + "\"}}"))
                    .get();
        }
    }

    static TableDescription description(String table, long wcu) {
        return SdkJson.fromJson(
                "{\"TableName\":\"" + table + "\",\"AttributeDefinitions\":["
                        + "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
                        + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
                        + "\"TableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/" + table + "\","
                        + "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":100,\"WriteCapacityUnits\":" + wcu + "}}",
                TableDescription.builder());
    }

    static Backup writeBackup(S3Server s3, String table, int count, int perFile, long wcu) throws Exception {
        var items = new RandomItems(6, SHAPE);
        var writer = new BackupWriter(s3.client(), LAYOUT, "000000000000", "us-east-1", table, "b", perFile);
        var threads = new ArrayList<Thread>();
        for (int t = 0; t < 2; t++) {
            int part = t;
            var thread = new Thread(() -> {
                try (var p = writer.openPart()) {
                    for (int i = part; i < count; i += 2) {
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
        return writer.finish(
                description(table, wcu), List.of(), null, Instant.now().minus(Duration.ofHours(1)), null);
    }

    static void createTable(DynamoDbClient dynamo, String name) {
        var d = description(name, 100);
        dynamo.createTable(b -> b.tableName(name)
                .attributeDefinitions(d.attributeDefinitions())
                .keySchema(d.keySchema())
                .provisionedThroughput(p -> p.readCapacityUnits(100L).writeCapacityUnits(100L)));
        Dynalite.awaitActive(dynamo, name);
    }

    static void writeAll(DynamoDbClient dynamo, String table, List<WriteRequest> batch) {
        if (batch.isEmpty()) {
            return;
        }
        Map<String, List<WriteRequest>> pending = Map.of(table, new ArrayList<>(batch));
        while (!pending.isEmpty()) {
            var request = pending;
            var left = dynamo.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
            pending = left == null || left.isEmpty() ? Map.of() : left;
        }
        batch.clear();
    }
}
