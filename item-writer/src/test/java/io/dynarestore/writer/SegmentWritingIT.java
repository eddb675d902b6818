package io.dynarestore.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentFailed;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.TopicRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** item-writer alone: work items in, items in DynamoDB and status events out. */
class SegmentWritingIT {

    static KafkaBroker kafka;
    static Dynalite dynalite;
    static S3Server s3;
    static ConfigurableApplicationContext writer;
    static EventPublisher publisher;
    static TopicRecorder recorded;
    static final VaultLayout LAYOUT = new VaultLayout("vault", "");
    static final RandomItems ITEMS = new RandomItems(5, RandomItems.Shape.simple());
    static final int MAX_POLL_INTERVAL_MS = 6_000;
    static final int WRITES_PER_SECOND = 500;

    @BeforeAll
    static void start() {
        kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
        dynalite = Dynalite.start();
        s3 = S3Server.start("vault");
        // a poll interval far shorter than a segment takes (the write budget makes a segment last
        // 8 s or more): the writer must keep polling meanwhile. 6 s, not less: the interval is also
        // the rebalance timeout, and a loaded 2-core CI machine can stall a thread for a second or two
        writer = WriterApplication.builder()
                .run(
                        "--spring.profiles.active=local",
                        "--server.port=0",
                        "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                        "--DYNAMODB_ENDPOINT=" + dynalite.endpoint(),
                        "--S3_ENDPOINT=" + s3.endpoint(),
                        "--writer.consumers=2",
                        "--writer.budget.on-demand-initial-peak=" + WRITES_PER_SECOND,
                        "--writer.budget.on-demand-target=" + WRITES_PER_SECOND,
                        "--spring.kafka.consumer.properties.max.poll.interval.ms=" + MAX_POLL_INTERVAL_MS);
        publisher =
                new EventPublisher(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), "test");
        recorded = TopicRecorder.follow(kafka.bootstrapServers(), Topic.STATUS.topicName(), Topic.SEGMENTS.dlt());
    }

    @AfterAll
    static void stop() throws Exception {
        recorded.close();
        publisher.close();
        writer.close();
        s3.close();
        dynalite.close();
        kafka.close();
    }

    static void createTable(String name) {
        WriterFixtures.createTable(dynalite.client(), name);
    }

    static Backup backup(String table, int count, int perFile) {
        var writer = new BackupWriter(s3.client(), LAYOUT, "000000000000", "us-east-1", table, "b-" + table, perFile);
        try (var part = writer.openPart()) {
            for (int i = 0; i < count; i++) {
                part.write(ITEMS.item(i));
            }
        }
        return writer.finish(TableDescription.builder().tableName(table).build(), List.of(), null, Instant.now(), null);
    }

    static SegmentDispatched work(
            String restoreId, int segment, int of, ManifestFile f, String table, Long count, String md5) {
        return SegmentDispatched.of(
                restoreId,
                segment,
                of,
                new SegmentDispatched.DataFile(
                        "vault",
                        f.dataFileS3Key(),
                        count != null ? count : f.itemCount(),
                        md5 != null ? md5 : f.md5Checksum(),
                        "DYNAMODB_JSON"),
                new SegmentDispatched.WriteTarget(
                        "000000000000", "us-east-1", table, List.of("pk", "sk"), List.of("S", "N")));
    }

    static void dispatch(SegmentDispatched w) {
        EventPublisher.await(publisher.send(Topic.SEGMENTS, Topic.workKey(w.restoreId(), w.segment()), w));
    }

    static <T extends RestoreEvent> List<T> of(String restoreId, Class<T> type) {
        return recorded.on(Topic.STATUS.topicName()).stream()
                .map(e -> Messages.statusEvent(e.value()))
                .filter(type::isInstance)
                .map(type::cast)
                .filter(e -> e.restoreId().equals(restoreId))
                .toList();
    }

    @Test
    void writesSegmentsThatOutlastTheMaxPollIntervalExactlyOnce() throws Exception {
        // Given two segments of 4,000 items each, each taking longer than max.poll.interval.ms (6 s)
        // at 500 writes a second
        createTable("long");
        Backup backup = backup("long", 8_000, 4_000);
        for (int i = 0; i < 2; i++) {
            dispatch(work("long-1", i, 2, backup.files().get(i), "long", null, null));
        }

        // When both complete (8,000 writes: a bound against a hang, with room for a loaded machine)
        await().atMost(Duration.ofMinutes(8))
                .until(() -> of("long-1", SegmentCompleted.class).size() >= 2);
        Thread.sleep(3_000);

        // Then each completed once (no rebalance took a segment away and gave it to another member),
        // with its progress reported on the way, and the table holds every item
        assertThat(of("long-1", SegmentCompleted.class))
                .extracting(SegmentCompleted::segment)
                .containsExactlyInAnyOrder(0, 1);
        assertThat(of("long-1", SegmentCompleted.class)).allSatisfy(c -> {
            assertThat(c.itemsWritten()).isEqualTo(4_000);
            assertThat(c.durationMs()).isGreaterThan(MAX_POLL_INTERVAL_MS);
        });
        assertThat(of("long-1", io.dynarestore.contracts.status.SegmentProgressed.class))
                .isNotEmpty();
        assertThat(ItemDigests.ofTable(dynalite.client(), "long", List.of("pk", "sk")))
                .isEqualTo(ItemDigests.of(ITEMS.items(8_000), List.of("pk", "sk")));
    }

    @Test
    void failsASegmentWhoseFileDoesNotMatchItsManifestAndSaysWhy() {
        createTable("damaged");
        Backup backup = backup("damaged", 100, 100);
        ManifestFile f = backup.files().get(0);

        // a wrong checksum, a wrong count, a missing file, a missing table
        dispatch(work("bad-md5", 0, 1, f, "damaged", null, "AAAAAAAAAAAAAAAAAAAAAA=="));
        dispatch(work("bad-count", 0, 1, f, "damaged", 101L, null));
        dispatch(
                work("bad-file", 0, 1, new ManifestFile(1L, null, null, "nope/data/x.json.gz"), "damaged", null, null));
        dispatch(work("bad-table", 0, 1, f, "no-such-table", null, null));

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(of("bad-md5", SegmentFailed.class))
                    .singleElement()
                    .satisfies(e -> assertThat(e.reason()).contains("MD5"));
            assertThat(of("bad-count", SegmentFailed.class))
                    .singleElement()
                    .satisfies(e -> assertThat(e.reason()).contains("holds 100 items but its manifest says 101"));
            assertThat(of("bad-file", SegmentFailed.class))
                    .singleElement()
                    .satisfies(e -> assertThat(e.reason()).contains("missing from the vault"));
            assertThat(of("bad-table", SegmentFailed.class))
                    .singleElement()
                    .satisfies(e -> assertThat(e.reason()).contains("no-such-table"));
        });
        assertThat(of("bad-md5", SegmentCompleted.class)).isEmpty();
    }

    @Test
    void setsAsideAWorkItemThatIsNotOneAndKeepsWriting() throws Exception {
        // Given garbage on restore.segments
        try (var raw = new org.apache.kafka.clients.producer.KafkaProducer<String, String>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                        org.apache.kafka.common.serialization.StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                        org.apache.kafka.common.serialization.StringSerializer.class))) {
            raw.send(new ProducerRecord<>(Topic.SEGMENTS.topicName(), "x/0", "{\"type\":\"SegmentDispatched\"}"))
                    .get();
            raw.send(new ProducerRecord<>(Topic.SEGMENTS.topicName(), "x/1", "not json"))
                    .get();
        }
        // Then both land in the DLT, and a valid segment after them is still written
        await().atMost(Duration.ofSeconds(30))
                .until(() -> recorded.on(Topic.SEGMENTS.dlt()).stream()
                        .map(TopicRecorder.Entry::raw)
                        .toList()
                        .containsAll(List.of("{\"type\":\"SegmentDispatched\"}", "not json")));
        createTable("after-garbage");
        Backup backup = backup("after-garbage", 50, 50);
        dispatch(work("after-garbage", 0, 1, backup.files().get(0), "after-garbage", null, null));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> of("after-garbage", SegmentCompleted.class).size() == 1);
        assertThat(Json.toString(of("after-garbage", SegmentCompleted.class).get(0)))
                .contains("\"itemsWritten\":50");
    }
}
