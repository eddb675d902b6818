package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** An item-writer killed with SIGKILL in the middle of a restore loses nothing. */
class WriterCrashIT {

    /** 20 files of 500 items: the writer is killed with most of them still to write. */
    static final int ITEMS = 10_000;

    static RestoreStack stack;
    static TopicRecorder status;

    @BeforeAll
    static void startStack() {
        stack = RestoreStack.infrastructure();
        stack.startPlanner();
        stack.startApi();
        status = stack.followStatus();
    }

    @AfterAll
    static void stopStack() {
        status.close();
        stack.close();
    }

    @Test
    void completesWithEveryItemAndAnExactCountAfterAWriterIsKilledMidRestore() throws Exception {
        // Given a 10,000-item backup in 20 segments, and an item-writer running as its own process
        var items = new RandomItems(77, BackupFixtures.SHAPE);
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders");
        BackupFixtures.writeBackup(
                stack,
                source,
                "b-crash",
                items,
                ITEMS,
                ITEMS / 20,
                -1,
                Instant.now().plus(Duration.ofDays(1)));
        Process first = stack.startWriterProcess(
                RestoreStack.logDir().resolve("writer-killed.log"),
                "--writer.consumers=2",
                "--writer.progress-interval=200ms");

        // When a restore starts and the writer is killed (SIGKILL) while segments are being written
        var response = Http.post(stack.apiUri("/restores"), """
                {"restoreId": "crash-1", "source": {"table": "orders", "backupId": "b-crash"},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-after-crash"}}""");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> count("crash-1", "SegmentCompleted") >= 2 && count("crash-1", "SegmentProgressed") >= 1);
        first.destroyForcibly().waitFor();
        long completedAtKill = count("crash-1", "SegmentCompleted");
        assertThat(completedAtKill)
                .as("segments completed when the writer died")
                .isLessThan(20);
        assertThat(status.last("crash-1", "RestoreCompleted")).isNull();

        // and another writer starts
        Process second =
                stack.startWriterProcess(RestoreStack.logDir().resolve("writer-restarted.log"), "--writer.consumers=2");

        // Then the restore completes with the exact count
        JsonNode completed = await().atMost(Duration.ofMinutes(8))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> status.last("crash-1", "RestoreCompleted"), e -> e != null);
        assertThat(completed.get("itemsWritten").asLong()).isEqualTo(ITEMS);
        assertThat(completed.get("segments").asInt()).isEqualTo(20);
        assertThat(Http.get(stack.apiUri("/restores/crash-1"))
                        .json()
                        .get("itemsWritten")
                        .asLong())
                .isEqualTo(ITEMS);

        // and the table holds every item of the backup, nothing more
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), "orders-after-crash", BackupFixtures.KEYS))
                .isEqualTo(ItemDigests.of(items.items(ITEMS), BackupFixtures.KEYS));
        second.destroy();
        second.waitFor();
    }

    @Test
    void countsWhatAKilledWriterWroteAfterItsCheckpointWhenItsSegmentIsTakenOverInAnExistingTable() throws Exception {
        // Given a 20,000-item backup in 10 segments, an existing table holding another version of every
        // other item, and an item-writer that checkpoints every 2 s running as its own process
        int items = 20_000;
        var versions = new RandomItems(78, BackupFixtures.SHAPE);
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "ledger");
        BackupFixtures.writeBackup(
                stack,
                source,
                "b-take",
                versions,
                items,
                2_000,
                -1,
                Instant.now().plus(Duration.ofDays(1)));
        BackupFixtures.createSourceTable(stack.dynalite.client(), "ledger-live");
        var others = new RandomItems(79, BackupFixtures.SHAPE);
        var batch = new java.util.ArrayList<software.amazon.awssdk.services.dynamodb.model.WriteRequest>();
        for (int i = 0; i < items; i += 2) {
            var item = others.item(i);
            batch.add(software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
                    .putRequest(p -> p.item(item))
                    .build());
            if (batch.size() == 25) {
                var copy = java.util.List.copyOf(batch);
                stack.dynalite.client().batchWriteItem(b -> b.requestItems(java.util.Map.of("ledger-live", copy)));
                batch.clear();
            }
        }
        Process first = stack.startWriterProcess(
                RestoreStack.logDir().resolve("writer-taken-over.log"),
                "--writer.consumers=2",
                "--writer.progress-interval=2s");

        // When every record is restored into it and the writer is killed between two checkpoints
        var response = Http.post(stack.apiUri("/restores"), """
                {"restoreId": "takeover-1", "source": {"table": "ledger", "backupId": "b-take"},
                 "scope": {"type": "RECORDS", "keyFilters": [{"partitionKey": {"condition": "BeginsWith",
                           "values": ["p"]}}]},
                 "destination": {"type": "EXISTING_TABLE", "tableName": "ledger-live"}}""");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> count("takeover-1", "SegmentProgressed") >= 2);
        Thread.sleep(1_000);
        first.destroyForcibly().waitFor();
        assertThat(status.last("takeover-1", "RestoreCompleted")).isNull();
        Process second = stack.startWriterProcess(
                RestoreStack.logDir().resolve("writer-taking-over.log"), "--writer.consumers=2");

        // Then the restore completes, verified, counting every item as written once: none as unchanged,
        // although the new owners found the killed writer's last items already there
        JsonNode completed = await().atMost(Duration.ofMinutes(8))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> status.last("takeover-1", "RestoreCompleted"), e -> e != null);
        assertThat(completed.get("itemsWritten").asLong())
                .as(completed.toString())
                .isEqualTo(items);
        assertThat(completed.get("itemsOverwritten").asLong()).isEqualTo(items / 2);
        assertThat(completed.get("itemsUnchanged").asLong()).isZero();
        assertThat(completed.get("verification").get("status").asString()).isEqualTo("PASSED");
        assertThat(status.of("takeover-1").stream()
                        .filter(e -> "SegmentCompleted".equals(e.type()))
                        .anyMatch(e -> e.json().hasNonNull("resumedFromLine")))
                .as("a segment resumed from a checkpoint")
                .isTrue();
        second.destroy();
        second.waitFor();
    }

    static long count(String restoreId, String type) {
        return status.of(restoreId).stream()
                .filter(e -> type.equals(e.type()))
                .map(e -> e.json().get("segment").asInt())
                .distinct()
                .count();
    }
}
