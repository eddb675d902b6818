package io.dynarestore.protector.backups;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.BackupMethod;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionEvent;
import io.dynarestore.contracts.protection.ProtectionMessageRejected;
import io.dynarestore.contracts.protection.ProtectionRejectionCode;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.TopicRecorder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * SCAN backups whose segments protector replicas share over {@code restore.protection.scans}: a
 * KRaft broker, dynalite behind the capacity proxy (which meters every second's reads), S3Proxy.
 * Each {@link SegmentWorker} stands for one replica's scanning side.
 */
class SharedSegmentsIT {

    private static final String ACCOUNT = "000000000000";
    private static final String REGION = "us-east-1";
    private static final int PARTITIONS = Topic.PROTECTION_SCANS.defaultPartitions();

    private static KafkaBroker kafka;
    private static Dynalite dynalite;
    private static CapacityProxy proxy;
    private static S3Server s3;
    private static AwsClients aws;
    private static DynamoDbClient dynamo;
    private static EventPublisher publisher;
    private static final VaultLayout LAYOUT = new VaultLayout("vault", "");
    private final List<SegmentWorker> workers = new ArrayList<>();

    @BeforeAll
    static void start() {
        kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
        dynalite = Dynalite.start();
        proxy = CapacityProxy.inFrontOf(dynalite.endpoint());
        s3 = S3Server.start("vault");
        aws = new AwsClients(new AwsSettings(
                ACCOUNT,
                REGION,
                new AwsSettings.Credentials(S3Server.ACCESS_KEY, S3Server.SECRET_KEY),
                new AwsSettings.S3(s3.endpoint(), REGION, true),
                null,
                null,
                List.of(new AwsSettings.Account(
                        ACCOUNT,
                        null,
                        null,
                        Map.of(REGION, new AwsSettings.Region(proxy.endpoint(), false, false, true, null))))));
        dynamo = aws.dynamo(ACCOUNT, REGION);
        publisher = new EventPublisher(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), "protector");
    }

    @AfterAll
    static void stop() {
        publisher.close();
        aws.close();
        proxy.close();
        dynalite.close();
        s3.close();
        kafka.close();
    }

    @AfterEach
    void stopWorkers() {
        workers.forEach(SegmentWorker::close);
        workers.clear();
    }

    @Test
    void theSegmentsOfABackupAreScannedByTwoReplicasWithinTheTablesReadBudget() {
        // Given a provisioned table of 40 RCU holding about 600 KB, whose backups may use half of its reads
        fill("shared", 400);
        var policy = policy("shared");
        double budget = ScanBackups.readBudget(
                dynamo.describeTable(b -> b.tableName("shared")).table(), policy, true);
        assertThat(budget).isEqualTo(20.0);
        // and two replicas, and a backup id whose four segments fall on both replicas' partitions
        var a = worker();
        var b = worker();
        awaitAssigned(a, b);
        String backupId = backupIdWhere(
                "shared",
                4,
                partitions -> partitions.stream().anyMatch(a.assignedPartitions()::contains)
                        && partitions.stream().anyMatch(b.assignedPartitions()::contains));

        // When the backup is taken with its segments shared
        var progress = new java.util.concurrent.atomic.AtomicLong();
        Backup backup = shared().take(dynamo, true, policy, backupId, Instant.now(), progress::set);

        // Then it holds every item once, both replicas scanned part of it, and no second read more than the budget
        // plus one page per segment (each segment paces its own share: the Pacer's promise is its rate plus the
        // reservation in flight, and a page here is two items of 1.5 KB, at most 2 units once an item runs over)
        assertThat(keysOf(backup)).hasSize(400);
        assertThat(backup.itemCount()).isEqualTo(400);
        assertThat(progress.get()).as("items read, as last told").isEqualTo(400);
        assertThat(scanned(a)).as("segments replica a scanned").isPositive();
        assertThat(scanned(b)).as("segments replica b scanned").isPositive();
        assertThat(scanned(a) + scanned(b)).isEqualTo(4);
        SortedMap<Long, Long> perSecond = proxy.readPerSecond("shared");
        System.out.println("shared SCAN backup read units per second " + perSecond.values() + ", budget " + budget);
        long pageUnits = 2;
        assertThat(perSecond.values())
                .allSatisfy(units -> assertThat(units).isLessThanOrEqualTo((long) budget + 4 * pageUnits));
        // and over the scan's whole span, no more than the budget
        long total = perSecond.values().stream().mapToLong(Long::longValue).sum();
        long span = perSecond.lastKey() - perSecond.firstKey() + 1;
        assertThat(total).as("units read over %d s", span).isLessThanOrEqualTo((long) (budget * span));
        // and nothing of its Scan is left in the vault but the backup
        assertThat(s3.client()
                        .listObjectsV2(r -> r.bucket("vault")
                                .prefix(LAYOUT.backupPrefix(ACCOUNT, REGION, "shared", backupId) + "_scan/"))
                        .keyCount())
                .isZero();
    }

    @Test
    void theSegmentsOfAReplicaThatStopsMidScanAreScannedOnFromTheirCheckpointsByAnother() throws Exception {
        // Given a table and two replicas, and a backup id whose segments all fall on replica a's partitions
        fill("handed-over", 400);
        var policy = policy("handed-over");
        var a = worker();
        var b = worker();
        awaitAssigned(a, b);
        String backupId = backupIdWhere(
                "handed-over", 4, partitions -> a.assignedPartitions().containsAll(partitions));

        // When the backup is taken, and replica a stops once its segments have uploaded a data file
        var taking = new java.util.concurrent.CompletableFuture<Backup>();
        var owner = new Thread(() -> {
            try {
                taking.complete(shared().take(dynamo, true, policy, backupId, Instant.now(), n -> {}));
            } catch (RuntimeException e) {
                taking.completeExceptionally(e);
            }
        });
        owner.start();
        String scanPrefix = LAYOUT.backupPrefix(ACCOUNT, REGION, "handed-over", backupId) + "_scan/";
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> s3.client()
                                .listObjectsV2(r -> r.bucket("vault").prefix(scanPrefix))
                                .keyCount()
                        > 0);
        a.close();
        workers.remove(a);
        Backup backup = taking.get(120, java.util.concurrent.TimeUnit.SECONDS);

        // Then replica b scanned the segments on, and the backup holds every item exactly once
        assertThat(scanned(a))
                .as("segments replica a finished before it stopped")
                .isLessThan(4);
        assertThat(scanned(b)).as("segments replica b scanned on").isPositive();
        assertThat(keysOf(backup)).hasSize(400);
        assertThat(backup.itemCount()).isEqualTo(400);
        List<Map<String, AttributeValue>> items = itemsOf(backup);
        assertThat(items).hasSize(400);
    }

    @Test
    void aSegmentRequestThatCannotBeReadGoesToTheDeadLetterTopicIsReportedAndTheNextIsScanned() {
        // Given a replica, and a table
        fill("after-garbage", 40);
        var a = worker();
        awaitAssigned(a);
        String backupId = backupIdWhere("after-garbage", 1, partitions -> true);
        String key = Topic.scanKey(ACCOUNT, REGION, "after-garbage", backupId, 0);

        // When a record that is no request lands on the segment's partition before the real request
        publisher.sendRecord(new ProducerRecord<>(
                Topic.PROTECTION_SCANS.topicName(),
                key,
                "{\"type\":\"ScanSegmentRequested\",\"segment\":\"x\"}".getBytes(StandardCharsets.UTF_8)));
        Backup backup = new ScanBackups(s3.client(), LAYOUT, 10, 1, 20, sharedSegments())
                .take(dynamo, true, policy("after-garbage"), backupId, Instant.now(), n -> {});

        // Then the record is on the dead-letter topic with its reason, and the request after it was scanned
        assertThat(backup.itemCount()).isEqualTo(40);
        try (var recorded = TopicRecorder.follow(
                kafka.bootstrapServers(), Topic.PROTECTION_SCANS.dlt(), Topic.PROTECTION_EVENTS.topicName())) {
            var record = Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () -> recorded.on(Topic.PROTECTION_SCANS.dlt()).stream()
                                    .filter(r -> key.equals(r.key()))
                                    .findFirst(),
                            Optional::isPresent)
                    .orElseThrow();
            assertThat(record.headers().get(DeadLetters.REASON_CODE)).isEqualTo("INVALID_SCAN_SEGMENT");
            assertThat(record.headers().get(DeadLetters.EXCEPTION_MESSAGE))
                    .contains("not a valid ScanSegmentRequested");

            // and a rejection event names the table, where the record was, and why
            var event = Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () -> recorded.on(Topic.PROTECTION_EVENTS.topicName()).stream()
                                    .map(r -> Json.mapper().readValue(r.value(), ProtectionEvent.class))
                                    .filter(e -> e instanceof ProtectionMessageRejected m
                                            && "after-garbage".equals(m.table()))
                                    .map(ProtectionMessageRejected.class::cast)
                                    .findFirst(),
                            Optional::isPresent)
                    .orElseThrow();
            assertThat(event.code()).isEqualTo(ProtectionRejectionCode.INVALID_SCAN_SEGMENT);
            assertThat(event.topic()).isEqualTo(Topic.PROTECTION_SCANS.topicName());
            assertThat(event.reason()).contains("not a valid ScanSegmentRequested");
        }
    }

    private SegmentWorker worker() {
        var w = new SegmentWorker(
                aws,
                LAYOUT,
                publisher,
                2,
                "protector-it",
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new ConsumerHealth(),
                new SimpleMeterRegistry());
        workers.add(w);
        w.start();
        return w;
    }

    private static SharedSegments sharedSegments() {
        return new SharedSegments(publisher, s3.client(), LAYOUT, Duration.ofMillis(200), Duration.ofMinutes(1));
    }

    /** Four segments shared, 25 items per data file, pages of 20. */
    private static ScanBackups shared() {
        return new ScanBackups(s3.client(), LAYOUT, 25, 4, 20, sharedSegments());
    }

    private static long scanned(SegmentWorker worker) {
        return worker.scannedSegments();
    }

    /** Waits until the replicas share every partition of the topic between them. */
    private static void awaitAssigned(SegmentWorker... replicas) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    Set<Integer> all = new HashSet<>();
                    int sum = 0;
                    for (SegmentWorker w : replicas) {
                        if (w.assignedPartitions().isEmpty()) {
                            return false;
                        }
                        all.addAll(w.assignedPartitions());
                        sum += w.assignedPartitions().size();
                    }
                    return all.size() == PARTITIONS && sum == PARTITIONS;
                });
    }

    /**
     * A backup id of {@code table} whose segments' partitions (where Kafka's default partitioner puts their keys)
     * satisfy {@code test}.
     */
    private static String backupIdWhere(String table, int segments, java.util.function.Predicate<Set<Integer>> test) {
        for (int i = 0; ; i++) {
            String id = "b-" + Long.toHexString(System.nanoTime()) + "-" + i;
            var partitions = new HashSet<Integer>();
            for (int s = 0; s < segments; s++) {
                byte[] key = Topic.scanKey(ACCOUNT, REGION, table, id, s).getBytes(StandardCharsets.UTF_8);
                partitions.add(Utils.toPositive(Utils.murmur2(key)) % PARTITIONS);
            }
            if (test.test(partitions)) {
                return id;
            }
        }
    }

    private static ProtectionSet policy(String table) {
        return ProtectionSet.of(
                ACCOUNT,
                REGION,
                table,
                new ProtectionSet.Backups(BackupMethod.SCAN, "PT1H", "P1D", 50),
                new ProtectionSet.ChangeLog(ChangeLogMethod.NONE, null),
                "test");
    }

    private static void fill(String table, int n) {
        Dynalite.createTable(
                dynamo,
                table,
                RandomItems.Shape.simple(),
                b -> b.provisionedThroughput(t -> t.readCapacityUnits(40L).writeCapacityUnits(1_000L)));
        var items = new RandomItems(3, RandomItems.Shape.simple());
        for (int i = 0; i < n; i++) {
            int k = i;
            dynamo.putItem(b -> b.tableName(table).item(items.largeItem(k, 1_500)));
        }
    }

    private static Set<String> keysOf(Backup backup) {
        var keys = new HashSet<String>();
        for (var item : itemsOf(backup)) {
            keys.add(item.get("pk").s() + "/" + item.get("sk").n());
        }
        return keys;
    }

    private static List<Map<String, AttributeValue>> itemsOf(Backup backup) {
        var read = new ArrayList<Map<String, AttributeValue>>();
        for (ManifestFile f : backup.files()) {
            try (var reader = new DataFileReader(
                    f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                    f.md5Checksum())) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    read.add(line.item());
                }
            }
        }
        return read;
    }
}
