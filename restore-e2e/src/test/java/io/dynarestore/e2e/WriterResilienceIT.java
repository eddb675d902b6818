package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import tools.jackson.databind.JsonNode;

/**
 * An item-writer under a throttling storm and through outages of DynamoDB and of S3: every item
 * arrives, the rate settles at what the table takes, and a restore pauses while a service is
 * down and completes after, without failing a segment.
 */
class WriterResilienceIT {

    static final long TABLE_WCU = 400;
    static RestoreStack stack;
    static CapacityProxy proxy;
    static TopicRecorder status;
    static ConfigurableApplicationContext writer;
    static RandomItems items = new RandomItems(1618, BackupFixtures.SHAPE);

    @BeforeAll
    static void startStack() throws Exception {
        stack = RestoreStack.infrastructureWithDurableS3(Files.createTempDirectory("s3-durable"));
        proxy = CapacityProxy.inFrontOf(stack.dynalite.endpoint()).burstSeconds(1);
        stack.throughCapacityProxy(proxy);
        stack.startPlanner();
        writer = stack.startWriter(
                "--writer.consumers=2",
                "--writer.progress-interval=500ms",
                "--writer.budget.provisioned-share=1.0",
                "--writer.resilience.open-wait=2s");
        stack.startApi();
        status = stack.followStatus();
        TableDescription source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders").toBuilder()
                .provisionedThroughput(p -> p.readCapacityUnits(25L).writeCapacityUnits(TABLE_WCU))
                .build();
        backup(source, "b-1000", 1_000);
        backup(source, "b-3000", 3_000);
    }

    static void backup(TableDescription source, String id, int count) {
        BackupFixtures.writeItems(stack, source, id, items.items(count), 250, List.of(), null, null);
    }

    @AfterAll
    static void stopStack() {
        status.close();
        stack.close();
        proxy.close();
    }

    @Test
    void writesEveryItemThroughAThrottlingStormAndSettlesAtWhatTheTableTakes() throws Exception {
        // Given a table that takes only 100 WCU per second while the writer's budget says 400
        proxy.limit("orders-storm", 100);
        long unprocessedBefore = proxy.unprocessedItems() + proxy.throttledCalls();

        // When 1,000 items are restored into it
        start("storm", "b-1000", "orders-storm");
        var rates = new ArrayList<Double>();
        MeterRegistry meters = writer.getBean(MeterRegistry.class);
        JsonNode done = await().atMost(Duration.ofMinutes(8))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> {
                            var gauge = meters.find("dynarestore.writer.rate")
                                    .tag("table", "orders-storm")
                                    .gauge();
                            if (gauge != null) {
                                rates.add(gauge.value());
                            }
                            return status.last("storm", "RestoreCompleted");
                        },
                        e -> e != null);

        // Then every item arrived: nothing unprocessed was dropped
        assertThat(done.get("itemsWritten").asLong()).isEqualTo(1_000);
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), "orders-storm", BackupFixtures.KEYS))
                .isEqualTo(ItemDigests.of(items.items(1_000), BackupFixtures.KEYS));
        assertThat(proxy.unprocessedItems() + proxy.throttledCalls())
                .as("the storm happened")
                .isGreaterThan(unprocessedBefore);

        // and the writer's rate came down from its 400 WCU budget to around what the table takes
        var secondHalf =
                rates.subList(rates.size() / 2, rates.size()).stream().sorted().toList();
        double median = secondHalf.get(secondHalf.size() / 2);
        assertThat(median).isBetween(30.0, 200.0);
        var perSecond = new ArrayList<>(proxy.consumedPerSecond("orders-storm").values());
        var steady = perSecond.subList(1, Math.max(2, perSecond.size() - 1));
        double mean = steady.stream().mapToLong(Long::longValue).average().orElse(0);
        System.out.printf(
                "storm: writer rate median %.0f WCU/s, table consumed %.0f WCU/s (limit 100), %d s%n",
                median, mean, perSecond.size());
        assertThat(mean).isBetween(60.0, 110.0);
    }

    @Test
    void pausesWhileDynamoDbIsUnreachableForThirtySecondsAndCompletesAfter() throws Exception {
        outage("ddb-out", "orders-ddb-out", proxy::down, proxy::up);
    }

    @Test
    void pausesWhileS3IsUnreachableForThirtySecondsAndCompletesAfter() throws Exception {
        outage("s3-out", "orders-s3-out", stack::stopS3, stack::startS3Again);
    }

    /** Segments one writer holds at once (one per consumer, {@code writer.consumers}). */
    static final int SEGMENTS_IN_HAND = 2;

    static void outage(String restoreId, String table, Runnable down, Runnable up) throws Exception {
        // Given a restore of 3,000 items (12 segments) under way
        start(restoreId, "b-3000", table);
        await().atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> WriterScaleIT.count(status, restoreId, "SegmentCompleted") >= 2);

        // When the service is unreachable for 30 seconds
        long completedAtDown;
        long completedAtUp;
        down.run();
        try {
            completedAtDown = WriterScaleIT.count(status, restoreId, "SegmentCompleted");
            Thread.sleep(30_000);
            completedAtUp = WriterScaleIT.count(status, restoreId, "SegmentCompleted");
        } finally {
            up.run();
        }
        // Then no segment beyond those already in hand completes meanwhile (unpaused, all 12 finish in
        // under 10 s at the table's 400 WCU); one in hand may finish late on a loaded machine, as its
        // file may already be read, so the bound is the segments in hand, never a time
        assertThat(completedAtUp)
                .as("paused: segments completed during the outage, from %d", completedAtDown)
                .isLessThanOrEqualTo(completedAtDown + SEGMENTS_IN_HAND)
                .isLessThan(12);
        assertThat(status.typesOf(restoreId)).doesNotContain("SegmentFailed", "RestoreFailed");

        // and the restore completes after, with every item
        JsonNode done = await().atMost(Duration.ofMinutes(8))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> status.last(restoreId, "RestoreCompleted"), e -> e != null);
        assertThat(status.typesOf(restoreId)).doesNotContain("SegmentFailed");
        assertThat(done.get("itemsWritten").asLong()).isEqualTo(3_000);
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), table, BackupFixtures.KEYS))
                .isEqualTo(ItemDigests.of(items.items(3_000), BackupFixtures.KEYS));
    }

    static void start(String restoreId, String backupId, String table) throws Exception {
        var response = Http.post(stack.apiUri("/restores"), """
                {"restoreId": "%s", "source": {"table": "orders", "backupId": "%s"},
                 "destination": {"type": "NEW_TABLE", "tableName": "%s"}}""".formatted(restoreId, backupId, table));
        assertThat(response.status()).as(response.body()).isEqualTo(202);
    }
}
