package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import tools.jackson.databind.JsonNode;

/**
 * Three item-writer replicas (separate processes) share one table's write budget through a proxy
 * that enforces DynamoDB's capacity rules: together they never pass 110% of the budget in any
 * second, and killing one mid-restore loses nothing, its segments resuming from their checkpoints.
 */
class WriterScaleIT {

    static final int ITEMS = 6_000;
    static final long TABLE_WCU = 400;
    static RestoreStack stack;
    static CapacityProxy proxy;
    static TopicRecorder status;
    static RandomItems items = new RandomItems(2718, BackupFixtures.SHAPE);

    @BeforeAll
    static void startStack() throws Exception {
        stack = RestoreStack.infrastructure();
        proxy = CapacityProxy.inFrontOf(stack.dynalite.endpoint());
        stack.throughCapacityProxy(proxy);
        stack.startPlanner();
        stack.startApi();
        status = stack.followStatus();
        TableDescription source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders").toBuilder()
                .provisionedThroughput(p -> p.readCapacityUnits(25L).writeCapacityUnits(TABLE_WCU))
                .build();
        BackupFixtures.writeItems(stack, source, "b-scale", items.items(ITEMS), 300, List.of(), null, null);
    }

    @AfterAll
    static void stopStack() {
        status.close();
        stack.close();
        proxy.close();
    }

    @Test
    void threeReplicasStayWithinTheBudgetAndLoseNothingWhenOneIsKilled() throws Exception {
        // Given three item-writer replicas, each its own process, sharing a 400 WCU table's whole budget
        var writers = new ArrayList<Process>();
        var logs = new ArrayList<Path>();
        for (int i = 0; i < 3; i++) {
            Path log = RestoreStack.logDir().resolve("scale-writer-" + i + ".log");
            logs.add(log);
            writers.add(stack.startWriterProcess(
                    log,
                    "--writer.consumers=2",
                    "--writer.progress-interval=500ms",
                    "--writer.budget.provisioned-share=1.0"));
        }
        for (Path log : logs) {
            await().atMost(Duration.ofMinutes(5))
                    .until(() -> Files.exists(log) && Files.readString(log).contains("Started WriterApplication"));
        }
        Thread.sleep(4_000); // let the group settle on three members

        // When a restore into a new table starts, and a replica that holds a checkpointed segment not yet
        // completed is killed (SIGKILL) mid-restore
        var response = Http.post(stack.apiUri("/restores"), """
                {"restoreId": "scale-1", "source": {"table": "orders", "backupId": "b-scale"},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-scaled"}}""");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        Process victim = await().atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> completed("scale-1") >= 2 ? holdingACheckpointedSegment("scale-1", writers) : null,
                        Objects::nonNull);
        victim.destroyForcibly().waitFor();
        assertThat(status.last("scale-1", "RestoreCompleted")).isNull();

        // Then the restore completes with every item
        JsonNode done = await().atMost(Duration.ofMinutes(8))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> status.last("scale-1", "RestoreCompleted"), e -> e != null);
        assertThat(done.get("itemsWritten").asLong()).isEqualTo(ITEMS);
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), "orders-scaled", BackupFixtures.KEYS))
                .isEqualTo(ItemDigests.of(items.items(ITEMS), BackupFixtures.KEYS));

        // and the killed replica's segments were resumed from their checkpoints, not rewritten
        assertThat(status.of("scale-1").stream()
                        .filter(e -> e.type().equals("SegmentCompleted"))
                        .filter(e -> e.json().has("resumedFromLine")
                                && e.json().get("resumedFromLine").asLong() > 0))
                .isNotEmpty();

        // and no second of the restore consumed more than 110% of the table's WCU
        var perSecond = proxy.consumedPerSecond("orders-scaled");
        assertThat(perSecond).isNotEmpty();
        assertThat(perSecond.values()).allSatisfy(units -> assertThat(units).isLessThanOrEqualTo(TABLE_WCU * 11 / 10));
        assertThat(proxy.throttledCalls()).isZero();
        long busiest =
                perSecond.values().stream().mapToLong(Long::longValue).max().orElse(0);
        System.out.printf(
                "3 replicas: %d WCU in %d s, busiest second %d WCU (budget %d)%n",
                proxy.consumed("orders-scaled"), perSecond.size(), busiest, TABLE_WCU);
    }

    static long completed(String restoreId) {
        return count(status, restoreId, "SegmentCompleted");
    }

    /** Distinct segments with an event of this type. */
    static long count(TopicRecorder status, String restoreId, String type) {
        return status.of(restoreId).stream()
                .filter(e -> e.type().equals(type))
                .map(e -> e.json().get("segment").asInt())
                .distinct()
                .count();
    }

    /**
     * The writer process that last checkpointed a segment (SegmentProgressed with lines done) that has not
     * completed; a writer names itself {@code host/pid/consumer}.
     */
    static Process holdingACheckpointedSegment(String restoreId, List<Process> writers) {
        var events = status.of(restoreId);
        var completed = events.stream()
                .filter(e -> e.type().equals("SegmentCompleted"))
                .map(e -> e.json().get("segment").asInt())
                .collect(Collectors.toSet());
        var holders = new HashMap<Integer, String>();
        for (var e : events) {
            if (e.type().equals("SegmentProgressed")
                    && e.json().path("linesDone").asLong() > 0
                    && !completed.contains(e.json().get("segment").asInt())) {
                holders.put(
                        e.json().get("segment").asInt(), e.json().get("writer").asString());
            }
        }
        for (String writer : holders.values()) {
            long pid = Long.parseLong(writer.split("/")[1]);
            for (Process p : writers) {
                if (p.pid() == pid && p.isAlive()) {
                    return p;
                }
            }
        }
        return null;
    }
}
