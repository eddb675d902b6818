package io.dynarestore.bench;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.csv.ConsoleCsv;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.planner.PlannerApplication;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.writer.WriterApplication;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** What the benchmarks share: the vault layout and item shape, backups, tables, requests and batches. */
final class BenchFixtures {

    static final VaultLayout LAYOUT = new VaultLayout("vault", "");
    static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();

    private BenchFixtures() {}

    static String[] registry(String prefix, String endpoint) {
        return new String[] {
            "--" + prefix + ".aws.accounts[0].id=000000000000",
            "--" + prefix + ".aws.accounts[0].regions.us-east-1.dynamodb-endpoint=" + endpoint,
            "--" + prefix + ".aws.accounts[0].regions.us-east-1.enforced-capacity=true"
        };
    }

    static String[] concat(String[] a, String... b) {
        var all = new ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(new String[0]);
    }

    static void submit(KafkaBroker kafka, String restoreId, String table, String into) throws Exception {
        BenchFixtures.send(kafka, Topic.REQUESTS, restoreId, request(restoreId, table, into));
    }

    /** A full restore of backup {@code b} of {@code table} into a new table {@code into}. */
    static String request(String restoreId, String table, String into) {
        return "{\"restoreId\":\"" + restoreId
                + "\",\"source\":{\"table\":\"" + table
                + "\",\"backupId\":\"b\"},\"destination\":{\"type\":"
                + "\"NEW_TABLE\",\"tableName\":\"" + into + "\"}}";
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
        return writeBackup(s3, table, count, perFile, wcu, UnaryOperator.identity());
    }

    /** The same backup, each item passed through {@code shape} first. */
    static Backup writeBackup(
            S3Server s3,
            String table,
            int count,
            int perFile,
            long wcu,
            UnaryOperator<Map<String, AttributeValue>> shape)
            throws Exception {
        var items = new RandomItems(6, SHAPE);
        var writer = new BackupWriter(s3.client(), LAYOUT, "000000000000", "us-east-1", table, "b", perFile);
        var threads = new ArrayList<Thread>();
        for (int t = 0; t < 2; t++) {
            int part = t;
            var thread = new Thread(() -> {
                try (var p = writer.openPart()) {
                    for (int i = part; i < count; i += 2) {
                        p.write(shape.apply(items.item(i)));
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

    /**
     * {@code item} as a table that keeps one type per attribute: each attribute other than the keys
     * renamed after its type and one of three names ({@code SS_1}), so that a console CSV has about
     * 35 columns instead of the 302 of {@link RandomItems}' 30 names of any type.
     */
    static Map<String, AttributeValue> oneTypePerName(Map<String, AttributeValue> item) {
        var typed = new LinkedHashMap<String, AttributeValue>();
        item.forEach((name, value) -> {
            boolean key = name.equals(SHAPE.partitionKey()) || name.equals(SHAPE.sortKey());
            typed.put(key ? name : ConsoleCsv.typeOf(value) + "_" + Math.floorMod(name.hashCode(), 3), value);
        });
        return typed;
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

    /** Sends one message with a producer of its own, once the broker has taken it. */
    static void send(KafkaBroker kafka, Topic topic, String key, String value) throws Exception {
        try (var producer = producer(kafka)) {
            producer.send(new ProducerRecord<>(topic.topicName(), key, value)).get();
        }
    }

    static KafkaProducer<String, String> producer(KafkaBroker kafka) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
    }

    /**
     * Waits until process {@code pid} used under 5% of a core over a second (Linux's
     * {@code /proc/<pid>/stat}), at most {@code atMost}: a measurement starts on a quiet dynalite.
     */
    static void awaitQuiet(long pid, Duration atMost) throws Exception {
        Path stat = Path.of("/proc/" + pid + "/stat");
        if (!Files.exists(stat)) {
            return;
        }
        long deadline = System.nanoTime() + atMost.toNanos();
        long before = cpuTicks(stat);
        while (System.nanoTime() < deadline) {
            Thread.sleep(1_000);
            long now = cpuTicks(stat);
            if (now - before < 5) { // clock ticks are 1/100 s: 5 ticks in 1 s is 5% of a core
                return;
            }
            before = now;
        }
    }

    private static long cpuTicks(Path stat) throws Exception {
        String s = Files.readString(stat);
        String[] fields = s.substring(s.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime + stime
    }

    /** A consumer of every partition of {@code restore.status}, from its start. */
    static KafkaConsumer<String, byte[]> statusFromStart(String bootstrap) {
        var consumer = new KafkaConsumer<String, byte[]>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class));
        var partitions = consumer.partitionsFor(Topic.STATUS.topicName()).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }

    /** What every service started by a benchmark is given: the local profile and the stack's endpoints. */
    static String[] serviceArgs(KafkaBroker kafka, URI dynamodb, S3Server s3) {
        return serviceArgs(kafka, dynamodb, s3, 0);
    }

    /** The same, listening on {@code port} (0: any free one). */
    static String[] serviceArgs(KafkaBroker kafka, URI dynamodb, S3Server s3, int port) {
        return new String[] {
            "--spring.profiles.active=local",
            "--server.port=" + port,
            "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
            "--DYNAMODB_ENDPOINT=" + dynamodb,
            "--S3_ENDPOINT=" + s3.endpoint()
        };
    }

    /** An item-writer's arguments with its budget lifted far above what dynalite takes, 4 segments at a time. */
    static String[] liftedWriter(String[] common) {
        return concat(
                common,
                "--writer.consumers=4",
                "--writer.budget.on-demand-target=1000000",
                "--writer.budget.on-demand-initial-peak=1000000",
                "--writer.budget.provisioned-share=1000");
    }

    /** Reads every data file of {@code backup} from S3, inflates it and counts its lines: what no reader can beat. */
    static long pureScan(S3Server s3, Backup backup) throws IOException {
        long lines = 0;
        byte[] buffer = new byte[64 * 1024];
        for (ManifestFile f : backup.files()) {
            try (InputStream in = new GZIPInputStream(
                    s3.client().getObject(b -> b.bucket(backup.dataBucket()).key(f.dataFileS3Key())), 64 * 1024)) {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    for (int i = 0; i < n; i++) {
                        if (buffer[i] == '\n') {
                            lines++;
                        }
                    }
                }
            }
        }
        return lines;
    }

    /**
     * {@code main} in a JVM of its own, as a service runs in production: this JVM's {@code java}
     * and class path, {@code -Xmx<heap>}, default JIT and collector; its output goes to
     * {@code target/bench-<name>.log}.
     */
    static Process javaProcess(String name, String heap, Class<?> main, String... args) throws IOException {
        var command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap));
        // extra flags for one of them, to profile it: -Dbench.jvm.writer="-XX:StartFlightRecording=filename=w.jfr"
        String extra = System.getProperty("bench.jvm." + name, "").strip();
        if (!extra.isEmpty()) {
            command.addAll(List.of(extra.split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Path log = Path.of("target", "bench-" + name + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** The output of a {@link #javaProcess} once it ended with exit code 0. */
    static String outputOf(String name, Process process) throws Exception {
        int exit = process.waitFor();
        String output = Files.readString(Path.of("target", "bench-" + name + ".log"));
        if (exit != 0) {
            throw new IllegalStateException(name + " exited with " + exit + ": " + output);
        }
        return output;
    }

    /** An item-writer in a JVM of its own, its on-demand budget lifted out of the way; returns once it listens. */
    static Process writerProcess(KafkaBroker kafka, URI dynamodb, S3Server s3, String... writerArgs)
            throws IOException {
        int port = Ports.free();
        String[] common = serviceArgs(kafka, dynamodb, s3, port);
        Process writer = javaProcess(
                "writer",
                "512m",
                WriterApplication.class,
                concat(
                        concat(
                                common,
                                "--writer.budget.on-demand-target=1000000",
                                "--writer.budget.on-demand-initial-peak=1000000"),
                        writerArgs));
        Ports.awaitAccepting(port, Duration.ofSeconds(90), "item-writer");
        return writer;
    }

    /** A restore-planner in a JVM of its own, as in production; returns once it listens. */
    static Process plannerProcess(KafkaBroker kafka, URI dynamodb, S3Server s3) throws IOException {
        int port = Ports.free();
        Process planner =
                javaProcess("planner", "512m", PlannerApplication.class, serviceArgs(kafka, dynamodb, s3, port));
        Ports.awaitAccepting(port, Duration.ofSeconds(90), "restore-planner");
        return planner;
    }

    /** A planner and one writer in this JVM, the writer's on-demand budget lifted out of the way. */
    static List<ConfigurableApplicationContext> plannerAndWriter(
            KafkaBroker kafka, URI dynamodb, S3Server s3, String... writerArgs) {
        String[] common = serviceArgs(kafka, dynamodb, s3);
        var services = new ArrayList<ConfigurableApplicationContext>();
        services.add(PlannerApplication.builder().run(common));
        services.add(WriterApplication.builder()
                .run(concat(
                        concat(
                                common,
                                "--writer.budget.on-demand-target=1000000",
                                "--writer.budget.on-demand-initial-peak=1000000"),
                        writerArgs)));
        return services;
    }

    /** Deletes a bench's S3Proxy folder: an export bench leaves gigabytes in it. */
    static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
