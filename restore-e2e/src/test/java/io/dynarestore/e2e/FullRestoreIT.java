package io.dynarestore.e2e;

import static io.dynarestore.e2e.BackupFixtures.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.core.vault.Backup;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** A full backup restored into a new table through restore-api, restore-planner and item-writer. */
class FullRestoreIT {

    static RestoreStack stack;
    static TopicRecorder status;

    @BeforeAll
    static void startStack() {
        stack = SharedStack.get();
        status = stack.followStatus();
    }

    @AfterAll
    static void stopStack() {
        status.close();
    }

    @Test
    void restoresEveryItemOfA100000ItemBackupWithIndexesAndEveryTypeIntoANewTable() throws Exception {
        // Given a 100,000-item backup of a table with a GSI and an LSI, items of every type, one of 350 KB
        int count = 100_000;
        TableDescription source = BackupFixtures.createSourceTable(stack.dynalite.client(), "full-orders");
        var items = new RandomItems(2026, BackupFixtures.SHAPE);
        Backup backup = BackupFixtures.writeBackup(
                stack,
                source,
                "b-100k",
                items,
                count,
                5_000,
                4_242,
                Instant.now().plus(Duration.ofDays(30)));
        assertThat(backup.itemCount()).isEqualTo(count);

        // When it is restored into a new table through the REST API
        var response = Http.post(stack.apiUri("/restores"), """
                {"source": {"table": "full-orders", "backupId": "b-100k"},
                 "destination": {"type": "NEW_TABLE", "tableName": "full-orders-restored"}}""");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        String restoreId = response.json().get("restoreId").asString();
        assertThat(response.header("Location")).isEqualTo("/restores/" + restoreId);
        awaitState(restoreId, "COMPLETED", Duration.ofMinutes(10));

        // Then the restore reports every item written
        var done = Http.get(stack.apiUri("/restores/" + restoreId)).json();
        assertThat(done.get("itemsWritten").asLong()).isEqualTo(count);
        assertThat(status.last(restoreId, "RestoreCompleted")
                        .get("itemsWritten")
                        .asLong())
                .isEqualTo(count);

        // and a full scan of the new table equals the backup item for item
        var expected = new ArrayList<Map<String, AttributeValue>>(count);
        TreeMap<String, String> want = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            var item = i == 4_242 ? items.largeItem(i, 350 * 1024) : items.item(i);
            want.put(ItemDigests.key(item, KEYS), ItemDigests.digest(item));
        }
        TreeMap<String, String> got = ItemDigests.ofTable(stack.dynalite.client(), "full-orders-restored", KEYS);
        assertThat(got.size()).isEqualTo(count);
        assertThat(got).isEqualTo(want);

        // and the new table's key schema, indexes and billing equal the backup's
        TableDescription restored = stack.dynalite
                .client()
                .describeTable(b -> b.tableName("full-orders-restored"))
                .table();
        assertThat(restored.keySchema()).isEqualTo(source.keySchema());
        assertThat(restored.attributeDefinitions()).containsExactlyInAnyOrderElementsOf(source.attributeDefinitions());
        assertThat(restored.globalSecondaryIndexes()).singleElement().satisfies(g -> {
            assertThat(g.indexName()).isEqualTo("byG");
            assertThat(g.keySchema())
                    .isEqualTo(source.globalSecondaryIndexes().get(0).keySchema());
            assertThat(g.projection())
                    .isEqualTo(source.globalSecondaryIndexes().get(0).projection());
            assertThat(g.provisionedThroughput().writeCapacityUnits())
                    .isEqualTo(source.globalSecondaryIndexes()
                            .get(0)
                            .provisionedThroughput()
                            .writeCapacityUnits());
        });
        assertThat(restored.localSecondaryIndexes()).singleElement().satisfies(l -> {
            assertThat(l.indexName()).isEqualTo("byL");
            assertThat(l.keySchema())
                    .isEqualTo(source.localSecondaryIndexes().get(0).keySchema());
            assertThat(l.projection())
                    .isEqualTo(source.localSecondaryIndexes().get(0).projection());
        });
        assertThat(billing(restored)).isEqualTo(billing(source));
        assertThat(restored.provisionedThroughput().readCapacityUnits())
                .isEqualTo(source.provisionedThroughput().readCapacityUnits());
        assertThat(restored.provisionedThroughput().writeCapacityUnits())
                .isEqualTo(source.provisionedThroughput().writeCapacityUnits());
    }

    static BillingMode billing(TableDescription d) {
        return d.billingModeSummary() == null
                ? BillingMode.PROVISIONED
                : d.billingModeSummary().billingMode();
    }

    static void awaitState(String restoreId, String state, Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            var r = Http.get(stack.apiUri("/restores/" + restoreId));
            assertThat(r.status()).isEqualTo(200);
            String now = r.json().get("state").asString();
            if (List.of("FAILED", "REJECTED").contains(now) && !now.equals(state)) {
                throw new AssertionError("restore ended " + now + ": " + r.body());
            }
            assertThat(now).as(r.body()).isEqualTo(state);
        });
    }
}
