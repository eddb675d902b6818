package io.dynarestore.protector;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.BackupMethod;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionEvent;
import io.dynarestore.contracts.protection.ProtectionMessageRejected;
import io.dynarestore.contracts.protection.ProtectionRejectionCode;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.backups.BackupSchedule;
import io.dynarestore.testkit.ChildJvm;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.RecordedWorkload;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.StreamedTables;
import io.dynarestore.testkit.StreamsEndpoint;
import io.dynarestore.testkit.TopicRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The protector on real components (a KRaft broker, dynalite behind the testkit's Streams endpoint,
 * S3Proxy), its replicas as separate JVMs that the test kills with SIGKILL. The oracle is the
 * workload's own record of what it wrote, never the vault.
 */
class ProtectorIT {

    private static final String ACCOUNT = "000000000000";
    private static final String REGION = "us-east-1";
    private static final Path LOGS = Path.of("target", "protector-it");
    private static final int FLUSH_SECONDS = 5;

    private static KafkaBroker kafka;
    private static Dynalite dynalite;
    private static StreamsEndpoint endpoint;
    private static S3Server s3;
    private static DynamoDbClient dynamo;
    private static VaultCatalog catalog;
    private static VaultImage vault;
    private static final List<Process> replicas = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
        dynalite = Dynalite.start();
        // small shards, so that captures follow rollovers parent before child
        endpoint = StreamsEndpoint.inFrontOf(dynalite.endpoint()).recordsPerShard(150);
        s3 = S3Server.start("vault");
        dynamo = Dynalite.client(endpoint.endpoint());
        catalog = new VaultCatalog(s3.client(), new VaultLayout("vault", ""));
        vault = new VaultImage(s3.client(), catalog);
        Files.createDirectories(LOGS);
    }

    @AfterAll
    static void stop() {
        replicas.forEach(Process::destroyForcibly);
        endpoint.close();
        dynalite.close();
        s3.close();
        kafka.close();
    }

    @Test
    void everySecondOfARandomWorkloadRestoresExactlyThroughTwoReplicaKills() throws Exception {
        // Given three tables with streams, of different key shapes, with items written before protection, the
        // third's stream of 4 partitions (4 lineages of shards at once)
        var shapes = List.of(
                new RandomItems.Shape("pk", "S", "sk", "N", Map.of()),
                new RandomItems.Shape("id", "B", null, null, Map.of()),
                new RandomItems.Shape("pk", "N", "sk", "S", Map.of()));
        var workloads = new ArrayList<RecordedWorkload>();
        for (int i = 0; i < shapes.size(); i++) {
            String table = "protected-" + i;
            endpoint.partitions(i == 2 ? 4 : 1);
            StreamedTables.create(dynamo, table, shapes.get(i));
            endpoint.partitions(1);
            var w = new RecordedWorkload(dynamo, table, shapes.get(i), 1_000L + i, 120);
            for (int n = 0; n < 60; n++) {
                w.step();
            }
            workloads.add(w);
        }

        // and two protector replicas, and a policy per table: SCAN backups every 20 s, the stream flushed every
        // 5 s, the third table's stream captured in 3 shard groups (each placed on its own policy partition)
        Process a = startReplica("a-1");
        Process b = startReplica("b-1");
        awaitMembers(2); // a replica joining during the workload would move tables just before the first kill
        for (int i = 0; i < workloads.size(); i++) {
            protect("protected-" + i, "PT20S", "PT" + FLUSH_SECONDS + "S", i == 2 ? 3 : null);
        }
        // and, from an upstream system, a policy that breaks the rule (a backup every "hourly")
        String badKey = Topic.tableKey(ACCOUNT, REGION, "unprotectable");
        send(
                badKey,
                ("{\"type\":\"ProtectionSet\",\"account\":\"" + ACCOUNT + "\",\"region\":\"" + REGION
                                + "\",\"table\":\"unprotectable\",\"backups\":{\"method\":\"SCAN\",\"every\":\"hourly\","
                                + "\"retention\":\"P1D\"}}")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (int i = 0; i < workloads.size(); i++) {
            String table = "protected-" + i;
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> !catalog.listBackups(ACCOUNT, REGION, table).isEmpty());
        }

        // When a workload of about 40 writes/s runs for 60 s while replica a, then replica b, is SIGKILLed,
        // and the first table's latest restorable second is watched
        var watched = new java.util.concurrent.CopyOnWriteArrayList<long[]>();
        var watcher = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                var latest = vault.coverage(ACCOUNT, REGION, "protected-0")
                        .availability()
                        .latestRestorable();
                watched.add(new long[] {
                    System.currentTimeMillis(), latest == null ? Long.MIN_VALUE : latest.getEpochSecond()
                });
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        watcher.setDaemon(true);
        watcher.start();
        var kills = new ArrayList<Long>();
        long begin = System.currentTimeMillis();
        var random = new Random(7);
        boolean killedA = false;
        boolean restartedA = false;
        boolean killedB = false;
        while (System.currentTimeMillis() - begin < 60_000) {
            workloads.get(random.nextInt(workloads.size())).step();
            Thread.sleep(20);
            long t = System.currentTimeMillis() - begin;
            if (!killedA && t > 15_000) {
                a.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                kills.add(System.currentTimeMillis());
                killedA = true;
            }
            if (!restartedA && t > 30_000) {
                startReplica("a-2");
                restartedA = true;
            }
            if (!killedB && t > 40_000) {
                b.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                kills.add(System.currentTimeMillis());
                killedB = true;
            }
        }

        // Then every table's change log catches up with its last write
        for (int i = 0; i < workloads.size(); i++) {
            String table = "protected-" + i;
            long last = workloads.get(i).lastSecond();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(
                            () -> { // the group exists once its first member joins
                                var latest = vault.coverage(ACCOUNT, REGION, table)
                                        .availability()
                                        .latestRestorable();
                                return latest != null && latest.getEpochSecond() >= last;
                            });
        }

        watcher.interrupt();

        // (where the third table's groups ran: its owner runs group 0, and group g runs on the owner of the
        // policy partition g after the table's, which may or may not be the same replica)
        for (String name : List.of("a-1", "b-1", "a-2")) {
            Files.readAllLines(LOGS.resolve(name + ".log")).stream()
                    .filter(line -> line.contains("protected-2")
                            && (line.contains("capturing shard group") || line.contains("protecting ")))
                    .forEach(line -> System.out.println(name + ": " + line.substring(line.indexOf(" : ") + 3)));
        }

        // and a write is restorable within twice the flush interval at p99, away from the kills' takeovers
        long bound = 2_000L * FLUSH_SECONDS;
        var lags = new ArrayList<Long>();
        var lagsAll = new ArrayList<Long>();
        for (var write : workloads.get(0).writes()) {
            if (write.answeredMillis() < begin) {
                continue;
            }
            long seen = watched.stream()
                    .filter(o -> o[1] >= write.lastSecond())
                    .mapToLong(o -> o[0])
                    .min()
                    .orElse(Long.MAX_VALUE);
            long lag = seen - write.answeredMillis();
            lagsAll.add(lag);
            // a write not yet restorable when its owner is killed waits for the takeover; only one answered
            // within the bound before the kill is left out (one answered earlier had already missed the bound),
            // and so are those answered while the takeover runs
            long answered = write.answeredMillis();
            if (kills.stream()
                    .noneMatch(k -> (answered > k - bound && answered < k && seen > k)
                            || (answered >= k && answered < k + 25_000))) {
                lags.add(lag);
            }
        }
        var worst = workloads.get(0).writes().stream()
                .filter(w -> w.answeredMillis() >= begin)
                .sorted(java.util.Comparator.comparingLong((RecordedWorkload.Write w) -> -(watched.stream()
                                .filter(o -> o[1] >= w.lastSecond())
                                .mapToLong(o -> o[0])
                                .min()
                                .orElse(Long.MAX_VALUE)
                        - w.answeredMillis())))
                .limit(5)
                .map(w -> "t+" + (w.answeredMillis() - begin) + " ms")
                .toList();
        System.out.printf(
                "slowest writes to become restorable: %s; kills at %s%n",
                worst, kills.stream().map(k -> "t+" + (k - begin) + " ms").toList());
        Collections.sort(lags);
        Collections.sort(lagsAll);
        System.out.printf(
                "write to restorable: p50 %d ms, p99 %d ms (%d writes away from kills); with the kills' "
                        + "takeovers p50 %d ms, p99 %d ms, max %d ms; flush every %d s%n",
                pct(lags, 50),
                pct(lags, 99),
                lags.size(),
                pct(lagsAll, 50),
                pct(lagsAll, 99),
                lagsAll.get(lagsAll.size() - 1),
                FLUSH_SECONDS);
        assertThat(pct(lags, 99)).isLessThanOrEqualTo(bound);

        // and the policy that broke the rule went to the dead-letter topic with a rejection event naming the field
        assertThat(records(Topic.PROTECTION.dlt()).stream().map(r -> r.key())).contains(badKey);
        var rejections = records(Topic.PROTECTION_EVENTS.topicName()).stream()
                .map(r -> Json.mapper().readValue(r.value(), ProtectionEvent.class))
                .filter(e -> e instanceof ProtectionMessageRejected)
                .map(ProtectionMessageRejected.class::cast)
                .filter(e -> "unprotectable".equals(e.table()))
                .toList();
        assertThat(rejections).isNotEmpty().allSatisfy(e -> {
            assertThat(e.code()).isEqualTo(ProtectionRejectionCode.INVALID_POLICY);
            assertThat(e.reason()).startsWith("/backups/every: ");
        });
        assertThat(catalog.listBackups(ACCOUNT, REGION, "unprotectable")).isEmpty();

        // and at every second T of the workload (but the few a write's call straddled), the vault's image at T is
        // the brute-force replay of the workload's own record
        int compared = 0;
        for (int i = 0; i < workloads.size(); i++) {
            String table = "protected-" + i;
            RecordedWorkload w = workloads.get(i);
            PitrCoverage.Availability availability =
                    vault.coverage(ACCOUNT, REGION, table).availability();
            assertThat(availability.gaps()).as(table + " has no gap").isEmpty();
            if (i == 2) {
                var chains = catalog.listExports(ACCOUNT, REGION, table).stream()
                        .map(e -> String.valueOf(e.shardGroup()))
                        .distinct()
                        .toList();
                assertThat(chains).as(table + "'s chains").hasSize(3).doesNotContain("null");
            }
            long first = availability.windows().get(0).start().getEpochSecond();
            long last = w.lastSecond();
            assertThat(last - first)
                    .as(table + " is restorable over the whole workload")
                    .isGreaterThanOrEqualTo(59);
            var seconds = new ArrayList<Long>();
            for (long s = first; s <= last; s++) {
                if (!w.isAmbiguous(s)) {
                    seconds.add(s);
                }
            }
            assertThat(seconds.size()).as(table + " seconds to compare").isGreaterThan(40);
            for (long s : seconds) {
                Instant t = Instant.ofEpochSecond(s);
                var image = vault.at(ACCOUNT, REGION, table, t, w.keyAttributes());
                assertThat(image).as(table + " restorable at " + t).isPresent();
                assertThat(image.get()).as(table + " at " + t).isEqualTo(w.imageAt(t));
                compared++;
            }

            // and each 20-second slot since protection began has exactly one scheduled backup
            var slots = catalog.listBackups(ACCOUNT, REGION, table).stream()
                    .map(bk -> bk.backupId())
                    .filter(id -> id.endsWith("-scheduled"))
                    .toList();
            assertThat(slots).doesNotHaveDuplicates();
            Instant firstSlot = BackupSchedule.slotOf(Instant.ofEpochMilli(begin), Duration.ofSeconds(20));
            Instant lastSlot = BackupSchedule.slotOf(Instant.ofEpochSecond(last), Duration.ofSeconds(20));
            for (Instant slot = firstSlot.plusSeconds(20); !slot.isAfter(lastSlot); slot = slot.plusSeconds(20)) {
                assertThat(slots).as(table + " slot " + slot).contains(BackupSchedule.backupIdOf(slot));
            }
        }
        assertThat(compared).isGreaterThan(90);
    }

    private static long pct(List<Long> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * p / 100.0) - 1));
    }

    /** Waits until the protectors' consumer group has {@code count} members, each assigned partitions. */
    private static void awaitMembers(int count) {
        try (var admin = org.apache.kafka.clients.admin.Admin.create(
                Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(
                            () -> { // the group exists once its first member joins
                                var group = admin.describeConsumerGroups(List.of("protector"))
                                        .all()
                                        .get()
                                        .get("protector");
                                return group.members().size() == count
                                        && group.members().stream()
                                                .allMatch(m -> !m.assignment()
                                                        .topicPartitions()
                                                        .isEmpty());
                            });
        }
    }

    /** Every record of a topic so far. */
    private static List<TopicRecorder.Entry> records(String topic) {
        return TopicRecorder.readToEnd(kafka.bootstrapServers(), topic, Duration.ofSeconds(30));
    }

    private static void send(String key, byte[] value) throws Exception {
        try (var producer = new KafkaProducer<String, byte[]>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            producer.send(new ProducerRecord<>(Topic.PROTECTION.topicName(), key, value))
                    .get(10, TimeUnit.SECONDS);
        }
    }

    private static void protect(String table, String every, String flushEvery, Integer shardGroups) throws Exception {
        var policy = ProtectionSet.of(
                ACCOUNT,
                REGION,
                table,
                new ProtectionSet.Backups(BackupMethod.SCAN, every, "P1D", 50),
                new ProtectionSet.ChangeLog(ChangeLogMethod.STREAMS, flushEvery, shardGroups),
                "test");
        try (var producer = new KafkaProducer<String, byte[]>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            producer.send(new ProducerRecord<>(Topic.PROTECTION.topicName(), policy.subject(), Json.toBytes(policy)))
                    .get(10, TimeUnit.SECONDS);
        }
    }

    private static Process startReplica(String name) throws Exception {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        // the build's test JVM flags (C1, serial collector): with the JVM's defaults, C2 and G1 cost these
        // replicas more CPU than the workload they protect
        var command = new ArrayList<>(ChildJvm.command("256m"));
        command.addAll(List.of(
                "-cp",
                classpath,
                ProtectorApplication.class.getName(),
                "--spring.profiles.active=local",
                "--server.port=0",
                "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                "--DYNAMODB_ENDPOINT=" + endpoint.endpoint(),
                "--S3_ENDPOINT=" + s3.endpoint(),
                "--protector.capture.settle=1s"));
        command.addAll(ChildJvm.SHORT_KAFKA_SESSION); // a killed replica's tables move on within seconds
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(LOGS.resolve(name + ".log").toFile())
                .start();
        replicas.add(p);
        return p;
    }
}
