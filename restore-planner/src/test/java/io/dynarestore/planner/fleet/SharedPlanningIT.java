package io.dynarestore.planner.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.TableDescriptions;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.SweepInput;
import io.dynarestore.planner.staging.SweepStager;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A delta and an in-place sweep shared by two planner replicas over a real broker, against what one
 * replica builds alone.
 */
@Timeout(180)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the late parts of the timeout's test are built last
class SharedPlanningIT {

    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    static final String GROUP = "planner-fleet-it";
    static final long SECOND = 1_000_000L;
    static final long T0 = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli() * 1_000;

    static KafkaBroker kafka;
    static S3Server s3;
    static VaultLayout layout = new VaultLayout("vault", "");
    static VaultCatalog catalog;
    static EventPublisher publisher;
    static DeltaStager stager;
    static SweepStager sweeper;
    static Dynalite dynalite;
    static PlanningPartWorker first;
    static PlanningPartWorker second;
    static PlanningGroup group;

    @BeforeAll
    static void start() {
        kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
        s3 = S3Server.start("vault");
        catalog = new VaultCatalog(s3.client(), layout);
        publisher = new EventPublisher(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), "restore-planner");
        stager = new DeltaStager(s3.client(), catalog, 64L << 10, 200);
        sweeper = new SweepStager(s3.client(), catalog, 64L << 10, 200);
        dynalite = Dynalite.start();
        first = worker();
        second = worker();
        group = new PlanningGroup(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                GROUP + "-planning",
                Topic.PLANNING.topicName(),
                Duration.ofSeconds(5));
        first.start();
        second.start();
        awaitGroupOf(2);
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
        group.close();
        publisher.close();
        s3.close();
        dynalite.close();
        kafka.close();
    }

    static PlanningPartWorker worker() {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return new PlanningPartWorker(
                stager,
                sweeper,
                (account, region) -> dynalite.client(),
                s3.client(),
                layout,
                publisher,
                GROUP,
                config,
                new ConsumerHealth(),
                new SimpleMeterRegistry());
    }

    static void awaitGroupOf(int members) {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (group.partitionPerReplica().size() < members) {
            assertThat(System.nanoTime() - until)
                    .as("%d members in the planning group", members)
                    .isNegative();
            sleep(200);
        }
    }

    static SharedDeltas shared(long sharedAbove, Duration partTimeout) {
        return new SharedDeltas(
                stager,
                s3.client(),
                layout,
                publisher,
                group,
                new PlannerProperties.Fleet(sharedAbove, 16, partTimeout, sharedAbove),
                Duration.ofMillis(100));
    }

    /** A base, one export of every write over 61 s, and the resolution of the second before the end, in the vault. */
    record Vault(RandomHistory history, Backup base, PitrCoverage.Resolution resolution) {}

    /** A base and one export of every write over 60 s, in the vault; the resolution of the second before the end. */
    static PitrCoverage.Resolution history(String table, long seed) {
        return vault(table, seed).resolution();
    }

    static Vault vault(String table, long seed) {
        var history = new RandomHistory(seed, RandomItems.Shape.simple(), 300, 3_000, T0, 60 * SECOND);
        var backup = new BackupWriter(s3.client(), layout, ACCOUNT, REGION, table, "base", 100);
        try (var part = backup.openPart()) {
            history.base().forEach(part::write);
        }
        Backup base = backup.finish(TableDescriptions.ordersWithGsi(), List.of(), null, instant(T0), null);
        var export = new IncrementalExportWriter(
                s3.client(), layout, ACCOUNT, REGION, table, "x0", instant(T0), instant(T0 + 61 * SECOND), 300, false);
        try (var part = export.openPart()) {
            for (var w : history.writesIn(T0, T0 + 61 * SECOND, false)) {
                part.write(ExportLine.change(w.keys(), w.oldImage(), w.newImage(), w.micros()));
            }
        }
        export.finish();
        var coverage = PitrCoverage.of(
                catalog.listBackups(ACCOUNT, REGION, table),
                catalog.listExports(ACCOUNT, REGION, table),
                Instant.now());
        return new Vault(
                history, base, coverage.resolve(instant(T0 + 59 * SECOND)).orElseThrow());
    }

    static final KeySchema KEY = KeySchema.of(List.of("pk", "sk"), List.of("S", "N"));

    @Test
    @Order(1)
    void buildsALargeDeltaInOnePartPerReplicaIntoTheDeltaOneReplicaBuildsAlone() {
        // Given a history of 3,000 writes and two replicas in the planning group
        var resolution = history("fleet-a", 11);
        long firstBefore = first.builtParts();
        long secondBefore = second.builtParts();

        // When the delta is staged shared (every delta is large enough here) and alone
        var shared = shared(0, Duration.ofMinutes(2)).stage("shared-a", resolution, KEY, null);
        var alone = stager.stage("alone-a", resolution, KEY.names());

        // Then each replica built one part, and the merged delta is the one built alone, line for line
        assertThat(first.builtParts() - firstBefore).isEqualTo(1);
        assertThat(second.builtParts() - secondBefore).isEqualTo(1);
        assertThat(shared.keys()).isEqualTo(alone.keys()).isPositive();
        assertThat(shared.changesRead()).isEqualTo(alone.changesRead()).isEqualTo(3_000);
        assertThat(bytes(shared.skipKeys())).isEqualTo(bytes(alone.skipKeys()));
        assertThat(lines(shared)).isEqualTo(lines(alone));
        assertThat(stager.find("shared-a")).contains(shared);
    }

    @Test
    @Order(2)
    void buildsASmallDeltaWhereTheRestoreIsWithoutAskingTheFleet() {
        // Given a history of 3,000 changes, under the size a delta is shared above
        var resolution = history("fleet-b", 12);
        long before = first.builtParts() + second.builtParts();

        // When it is staged
        var delta = shared(3_000, Duration.ofMinutes(2)).stage("small-b", resolution, KEY, null);

        // Then no replica was asked for a part, and the delta is whole
        assertThat(first.builtParts() + second.builtParts()).isEqualTo(before);
        assertThat(delta.keys())
                .isEqualTo(stager.stage("alone-b", resolution, KEY.names()).keys());
    }

    @Test
    @Order(3)
    void failsThePlanningWithThePartsReasonWhenAPartCannotBeRead() {
        // Given a history whose change file is gone from the vault
        var resolution = history("fleet-c", 13);
        for (var f : catalog.exportFiles(resolution.exports().get(0))) {
            s3.client().deleteObject(b -> b.bucket("vault").key(f.dataFileS3Key()));
        }

        // When it is staged shared, then the planning fails with the part's own reason
        assertThatThrownBy(() -> shared(0, Duration.ofMinutes(2)).stage("broken-c", resolution, KEY, null))
                .isInstanceOf(PartFailed.class)
                .hasMessageContaining("of 2 of the point-in-time delta failed")
                .hasMessageContaining("key");
    }

    @Test
    @Order(7)
    void failsThePlanningNamingTheMissingPartsWhenTheyAreNotBuiltInTime() {
        // Given a history, and no time at all for its parts
        var resolution = history("fleet-d", 14);

        // When it is staged shared, then the planning fails, naming the parts, the setting and the topic
        assertThatThrownBy(() -> shared(0, Duration.ZERO).stage("late-d", resolution, KEY, null))
                .isInstanceOf(PartFailed.class)
                .hasMessageContaining("Parts [0, 1] of the 2 parts")
                .hasMessageContaining("planner.fleet.part-timeout")
                .hasMessageContaining("restore.planning");
    }

    @Test
    @Order(4)
    void sendsARecordThatIsNotAPartToTheDeadLetterTopicAndBuildsTheNextPart() throws Exception {
        // Given a record on restore.planning that is not a part (its attempt would become a vault key)
        String hostile = "{\"type\":\"DeltaPartDispatched\",\"eventId\":\"e\",\"restoreId\":\"r-e\","
                + "\"schemaVersion\":1,\"occurredAt\":\"2026-12-01T10:00:00Z\",\"attempt\":\"../../x\","
                + "\"part\":0,\"parts\":2}";
        publisher
                .producer()
                .send(new ProducerRecord<>(
                        Topic.PLANNING.topicName(), "r-e/0", hostile.getBytes(StandardCharsets.UTF_8)))
                .get();

        // When a delta is shared after it
        var resolution = history("fleet-e", 15);
        var shared = shared(0, Duration.ofMinutes(2)).stage("after-e", resolution, KEY, null);

        // Then the record is on the dead-letter topic with its reason, and the delta was built all the same
        assertThat(shared.keys()).isPositive();
        try (var dlt = new KafkaConsumer<>(
                Map.<String, Object>of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG, "dlt-reader",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            dlt.subscribe(List.of(Topic.PLANNING.dlt()));
            String found = null;
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (found == null && System.nanoTime() < until) {
                for (var record : dlt.poll(Duration.ofMillis(500))) {
                    if ("r-e/0".equals(record.key())) {
                        found = new String(
                                record.headers()
                                        .lastHeader("kafka_dlt-exception-message")
                                        .value(),
                                StandardCharsets.UTF_8);
                    }
                }
            }
            assertThat(found).contains("not a valid DeltaPartDispatched");
        }
    }

    @Test
    @Order(5)
    void sweepsATableInOneScanSegmentPerReplicaIntoTheDeletesOneReplicaFindsAlone() {
        // Given a base, its delta up to the end of second 59, and a table that holds every other key
        // of the image, the keys the delta deletes, and 400 keys the vault never saw
        var vault = vault("fleet-s", 16);
        var delta = stager.stage("delta-s", vault.resolution(), KEY.names());
        var history = vault.history();
        long until = T0 + 60 * SECOND;
        var known = new TreeSet<String>(); // the keys the image says something about: base, or changed by T
        history.base().forEach(item -> known.add(ItemDigests.key(item, KEY.names())));
        history.writesIn(T0, until, false).forEach(w -> known.add(ItemDigests.key(w.keys(), KEY.names())));
        var table = new TreeMap<String, Map<String, AttributeValue>>();
        int i = 0;
        for (var item : history.imageBefore(until).values()) {
            if (i++ % 2 == 0) {
                table.put(ItemDigests.key(item, KEY.names()), keyOf(item));
            }
        }
        for (var w : history.writes()) {
            if (w.newImage() == null || w.micros() >= until) {
                table.put(ItemDigests.key(w.keys(), KEY.names()), w.keys());
            }
        }
        for (int extra = 0; extra < 400; extra++) {
            var key = Map.of(
                    "pk",
                    AttributeValue.fromS("never-seen-" + extra),
                    "sk",
                    AttributeValue.fromN(String.valueOf(extra)));
            table.put(ItemDigests.key(key, KEY.names()), key);
        }
        var expected = new TreeSet<>(table.keySet());
        expected.removeAll(known);
        fill("fleet-s", table.values());
        var input = SweepInput.of(ACCOUNT, REGION, "fleet-s", KEY.names(), vault.base(), delta);
        long firstBefore = first.sweptParts();
        long secondBefore = second.sweptParts();

        // When the sweep is staged shared (every sweep is large enough here) and alone
        var shared = sweeps(0, Duration.ofMinutes(2)).stage("sweep-s", input);
        var alone = sweeper.stage("alone-s", input, dynalite.client());

        // Then each replica scanned one segment, and both found exactly the keys the image lacks
        assertThat(first.sweptParts() - firstBefore).isEqualTo(1);
        assertThat(second.sweptParts() - secondBefore).isEqualTo(1);
        assertThat(expected).hasSize(400);
        assertThat(deletes(shared)).isEqualTo(deletes(alone)).isEqualTo(expected);
        assertThat(shared.deletes()).isEqualTo(alone.deletes()).isEqualTo(expected.size());
        assertThat(shared.tableKeys()).isEqualTo(alone.tableKeys()).isEqualTo(table.size());
        assertThat(sweeper.find("sweep-s")).contains(shared);
    }

    @Test
    @Order(6)
    void failsThePlanningWithThePartsReasonWhenASweepCannotScanTheTable() {
        // Given the image of a table that does not exist
        var vault = vault("fleet-t", 17);
        var input = SweepInput.of(ACCOUNT, REGION, "fleet-t-gone", KEY.names(), vault.base(), null);

        // When its sweep is staged shared, then the planning fails with the part's own reason
        assertThatThrownBy(() -> sweeps(0, Duration.ofMinutes(2)).stage("gone-t", input))
                .isInstanceOf(PartFailed.class)
                .hasMessageContaining("of 2 of the in-place sweep failed")
                .hasMessageContaining("Table fleet-t-gone (account " + ACCOUNT + ", " + REGION + ") is gone");
    }

    static SharedSweeps sweeps(long sharedAbove, Duration partTimeout) {
        return new SharedSweeps(
                sweeper,
                (account, region) -> dynalite.client(),
                s3.client(),
                layout,
                publisher,
                group,
                new PlannerProperties.Fleet(sharedAbove, 16, partTimeout, sharedAbove),
                Duration.ofMillis(100));
    }

    static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
        return Map.of("pk", item.get("pk"), "sk", item.get("sk"));
    }

    /** Creates {@code table} holding {@code keys}. */
    static void fill(String table, Collection<Map<String, AttributeValue>> keys) {
        var dynamo = dynalite.client();
        Dynalite.createTable(dynamo, table, RandomItems.Shape.simple(), b -> b.billingMode("PAY_PER_REQUEST"));
        var batch = new ArrayList<WriteRequest>();
        for (var key : keys) {
            batch.add(WriteRequest.builder().putRequest(p -> p.item(key)).build());
            if (batch.size() == 25) {
                dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, List.copyOf(batch))));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, List.copyOf(batch))));
        }
    }

    static TreeSet<String> deletes(SweepStager.StagedSweep sweep) {
        var keys = new TreeSet<String>();
        for (ManifestFile f : sweep.files()) {
            try (var reader = new DataFileReader(
                    f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                    f.md5Checksum())) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    assertThat(keys.add(ItemDigests.key(line.keys(), KEY.names())))
                            .as("each key once")
                            .isTrue();
                }
            }
        }
        return keys;
    }

    static byte[] bytes(String key) {
        return s3.client().getObjectAsBytes(b -> b.bucket("vault").key(key)).asByteArray();
    }

    static TreeMap<String, String> lines(DeltaStager.StagedDelta delta) {
        var lines = new TreeMap<String, String>();
        for (ManifestFile f : delta.files()) {
            try (var reader = new DataFileReader(
                    f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                    f.md5Checksum())) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    String value = line.isDelete() ? "deleted" : ItemDigests.digest(line.newImage());
                    assertThat(lines.put(ItemDigests.key(line.keys(), KEY.names()), value))
                            .as("each key once")
                            .isNull();
                }
            }
        }
        return lines;
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
