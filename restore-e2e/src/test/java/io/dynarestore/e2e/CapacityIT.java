package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.core.KeySchemas;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import tools.jackson.databind.JsonNode;

/**
 * Restores into an existing provisioned table raise its write capacity and put the original back
 * however they end, even when the planner that raised it was killed; and never raise what
 * DynamoDB's decrease quota would not let them put back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CapacityIT {

    static final int ITEMS = 3_000;
    static RestoreStack stack;
    static TopicRecorder status;
    static RandomItems items = new RandomItems(404, BackupFixtures.SHAPE);
    static boolean servicesStarted;

    @BeforeAll
    static void startStack() throws Exception {
        stack = RestoreStack.infrastructure();
        stack.startApi();
        status = stack.followStatus();
        // a backup of a table like the destinations below
        TableDescription table = createProvisioned(stack.dynalite.client(), "ledger");
        BackupFixtures.writeItems(stack, table, "b-cap", items.items(ITEMS), 500, List.of(), null, null);
    }

    @AfterAll
    static void stopStack() {
        status.close();
        stack.close();
    }

    @Test
    @Order(1)
    void putsTheOriginalWriteCapacityBackAfterThePlannerThatRaisedItWasKilled() throws Exception {
        // Given an existing table provisioned at 5 WCU (and its GSI at 5), a planner in its own process, no writers
        DynamoDbClient dynamo = stack.dynalite.client();
        createProvisioned(dynamo, "ledger-copy");
        Path log = RestoreStack.logDir().resolve("planner-killed.log");
        Process planner = stack.startPlannerProcess(log);
        await().atMost(Duration.ofMinutes(1))
                .until(() -> Files.exists(log) && Files.readString(log).contains("owning status partitions"));

        // When a restore into it starts and raises its capacity
        var response = Http.post(stack.apiUri("/restores"), """
                {"restoreId": "cap-crash", "source": {"table": "ledger", "backupId": "b-cap"},
                 "destination": {"type": "EXISTING_TABLE", "tableName": "ledger-copy"}}""");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        JsonNode raise = await().atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> status.last("cap-crash", "CapacityRaiseStarted"), e -> e != null);
        assertThat(raise.get("original").findValues("writeCapacityUnits"))
                .extracting(JsonNode::asLong)
                .containsOnly(5L);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> writeUnits(dynamo, "ledger-copy").equals(List.of(1000L, 1000L)));
        JsonNode plan = status.last("cap-crash", "RestorePlanned");
        assertThat(plan.get("capacity").get("raise").asBoolean()).isTrue();
        assertThat(plan.get("capacity").get("reason").asString()).contains("put back");

        // and the planner is killed (SIGKILL) before the restore ends
        planner.destroyForcibly().waitFor();
        assertThat(status.last("cap-crash", "RestoreCompleted")).isNull();
        assertThat(status.last("cap-crash", "CapacityRestored")).isNull();
        assertThat(writeUnits(dynamo, "ledger-copy")).containsOnly(1000L);

        // and a writer and a new planner start
        startServices();

        // Then the restore completes, and the new planner puts the original write capacity back
        await().atMost(Duration.ofMinutes(6))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> status.last("cap-crash", "CapacityRestored"), e -> e != null);
        assertThat(status.typesOf("cap-crash")).contains("RestoreCompleted");
        assertThat(writeUnits(dynamo, "ledger-copy")).containsExactly(5L, 5L);
        assertThat(dynamo.describeTable(b -> b.tableName("ledger-copy"))
                        .table()
                        .provisionedThroughput()
                        .readCapacityUnits())
                .as("read units untouched")
                .isEqualTo(5L);
        assertThat(ItemDigests.ofTable(dynamo, "ledger-copy", BackupFixtures.KEYS))
                .isEqualTo(ItemDigests.of(items.items(ITEMS), BackupFixtures.KEYS));
        var view = Http.get(stack.apiUri("/restores/cap-crash")).json();
        assertThat(view.get("state").asString()).isEqualTo("COMPLETED");
    }

    @Test
    @Order(2)
    void doesNotRaiseATableThatUsedItsDecreasesOfTheDay() throws Exception {
        // Given an existing table at 5 WCU whose capacity was lowered 4 times today
        DynamoDbClient dynamo = stack.dynalite.client();
        createProvisioned(dynamo, "ledger-lowered");
        for (int i = 0; i < 4; i++) {
            setWriteUnits(dynamo, "ledger-lowered", 6);
            setWriteUnits(dynamo, "ledger-lowered", 5);
        }
        assertThat(dynamo.describeTable(b -> b.tableName("ledger-lowered"))
                        .table()
                        .provisionedThroughput()
                        .numberOfDecreasesToday())
                .isEqualTo(4L);
        startServices();

        // When a restore into it runs
        var response = Http.post(stack.apiUri("/restores"), """
                {"restoreId": "cap-quota", "source": {"table": "ledger", "backupId": "b-cap"},
                 "destination": {"type": "EXISTING_TABLE", "tableName": "ledger-lowered"}}""");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(6))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> status.last("cap-quota", "RestoreCompleted"), e -> e != null);

        // Then the plan says the capacity is not raised, and why
        JsonNode capacity = status.last("cap-quota", "RestorePlanned").get("capacity");
        assertThat(capacity.get("raise").asBoolean()).isFalse();
        assertThat(capacity.get("reason").asString()).contains("4 decreases").contains("could not be put back");

        // and it never was: no raise recorded, the capacity and the count of decreases unchanged
        assertThat(status.typesOf("cap-quota")).doesNotContain("CapacityRaiseStarted", "CapacityRestored");
        assertThat(writeUnits(dynamo, "ledger-lowered")).containsExactly(5L, 5L);
        assertThat(dynamo.describeTable(b -> b.tableName("ledger-lowered"))
                        .table()
                        .provisionedThroughput()
                        .numberOfDecreasesToday())
                .isEqualTo(4L);
        assertThat(ItemDigests.ofTable(dynamo, "ledger-lowered", BackupFixtures.KEYS))
                .hasSize(ITEMS);
    }

    /** A writer and a planner in this JVM, once for the class (the first test starts them after its kill). */
    static synchronized void startServices() {
        if (!servicesStarted) {
            stack.startWriter();
            stack.startPlanner();
            servicesStarted = true;
        }
    }

    static TableDescription createProvisioned(DynamoDbClient dynamo, String name) {
        dynamo.createTable(b -> b.tableName(name)
                .attributeDefinitions(
                        KeySchemas.attr("pk", ScalarAttributeType.S),
                        KeySchemas.attr("sk", ScalarAttributeType.N),
                        KeySchemas.attr("g", ScalarAttributeType.S))
                .keySchema(KeySchemas.key("pk", KeyType.HASH), KeySchemas.key("sk", KeyType.RANGE))
                .provisionedThroughput(BackupFixtures.throughput(5, 5))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName("byG")
                        .keySchema(KeySchemas.key("g", KeyType.HASH))
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.KEYS_ONLY)
                                .build())
                        .provisionedThroughput(BackupFixtures.throughput(5, 5))
                        .build()));
        io.dynarestore.testkit.Dynalite.awaitActive(dynamo, name);
        return dynamo.describeTable(b -> b.tableName(name)).table();
    }

    /** The write units of the table, then of its GSI. */
    static List<Long> writeUnits(DynamoDbClient dynamo, String table) {
        TableDescription d = dynamo.describeTable(b -> b.tableName(table)).table();
        return List.of(
                d.provisionedThroughput().writeCapacityUnits(),
                d.globalSecondaryIndexes().get(0).provisionedThroughput().writeCapacityUnits());
    }

    static void setWriteUnits(DynamoDbClient dynamo, String table, long units) {
        dynamo.updateTable(b -> b.tableName(table).provisionedThroughput(BackupFixtures.throughput(5, units)));
        io.dynarestore.testkit.Dynalite.awaitActive(dynamo, table);
    }
}
