package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.ApiShapes;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.RecordingDynamo;
import io.dynarestore.testkit.TopicRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import tools.jackson.databind.JsonNode;

/**
 * New tables restored with each option, read back from dynalite (DescribeTable,
 * ListTagsOfResource) where it keeps the setting; where it ignores or lacks one (SSE, stream,
 * table class, deletion protection, TTL, PITR), a recording proxy in front of it shows the exact
 * requests sent, checked against AWS's model of the API, and the restore's warnings say what the
 * endpoint did not apply.
 */
class TableOptionsIT {

    static final String KMS_KEY = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    static final int ITEMS = 300;
    static RestoreStack stack;
    static RecordingDynamo proxy;
    static TopicRecorder status;
    static TableDescription source;

    @BeforeAll
    static void startStack() throws Exception {
        stack = RestoreStack.infrastructure();
        proxy = RecordingDynamo.inFrontOf(stack.dynalite.endpoint());
        stack.dynamoEndpoint = proxy.endpoint();
        stack.startPlanner();
        stack.startWriter();
        stack.startApi();
        status = stack.followStatus();

        // a table with a GSI and an LSI, tagged env=prod, TTL on expiresAt and PITR on at backup time
        source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders");
        var items = new RandomItems(31, BackupFixtures.SHAPE);
        BackupFixtures.writeItems(
                stack,
                source,
                "b-opts",
                items.items(ITEMS),
                100,
                List.of(Tag.builder().key("env").value("prod").build()),
                TimeToLiveDescription.builder()
                        .timeToLiveStatus("ENABLED")
                        .attributeName("expiresAt")
                        .build(),
                ContinuousBackupsDescription.builder()
                        .continuousBackupsStatus("ENABLED")
                        .pointInTimeRecoveryDescription(p -> p.pointInTimeRecoveryStatus("ENABLED"))
                        .build());

        // and a table without LSIs
        var plain = source.toBuilder()
                .tableName("plain")
                .localSecondaryIndexes((java.util.Collection<LocalSecondaryIndexDescription>) null)
                .build();
        BackupFixtures.writeItems(stack, plain, "b-plain", items.items(10), 100, List.of(), null, null);
    }

    @AfterAll
    static void stopStack() {
        status.close();
        stack.close();
        proxy.close();
    }

    @Test
    void createsTheNewTableWithEveryOptionGiven() throws Exception {
        // When a backup is restored into a new table with every option set
        restore("""
                {"restoreId": "opts-all", "source": {"table": "orders", "backupId": "b-opts"},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-opts", "options": {
                   "includeGlobalSecondaryIndexes": false, "includeLocalSecondaryIndexes": false,
                   "tags": {"team": "payments", "cost-center": "42"},
                   "encryption": {"type": "CUSTOMER_MANAGED", "kmsKeyArn": "%s"},
                   "streams": "NEW_AND_OLD_IMAGES", "pointInTimeRecovery": true,
                   "billing": {"mode": "PROVISIONED", "readCapacityUnits": 7, "writeCapacityUnits": 9},
                   "deletionProtection": true, "timeToLive": {"enabled": true, "attributeName": "validUntil"},
                   "tableClass": "STANDARD_INFREQUENT_ACCESS"}}}""".formatted(KMS_KEY));

        // Then DescribeTable shows the keys, no indexes and the requested throughput
        TableDescription t = describe("orders-opts");
        assertThat(t.keySchema()).isEqualTo(source.keySchema());
        assertThat(t.hasGlobalSecondaryIndexes() && !t.globalSecondaryIndexes().isEmpty())
                .isFalse();
        assertThat(t.hasLocalSecondaryIndexes() && !t.localSecondaryIndexes().isEmpty())
                .isFalse();
        assertThat(t.provisionedThroughput().readCapacityUnits()).isEqualTo(7);
        assertThat(t.provisionedThroughput().writeCapacityUnits()).isEqualTo(9);
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), "orders-opts", BackupFixtures.KEYS))
                .hasSize(ITEMS);

        // and ListTagsOfResource the backup's tags, the requested ones and the restore's own
        assertThat(tags(t))
                .containsEntry("env", "prod")
                .containsEntry("team", "payments")
                .containsEntry("cost-center", "42")
                .containsEntry("dynarestore:restore-id", "opts-all");

        // and CreateTable asked for the key, the stream, the class and deletion protection
        JsonNode create = onlyRequest("CreateTable", "orders-opts");
        assertThat(create.get("SSESpecification").get("Enabled").asBoolean()).isTrue();
        assertThat(create.get("SSESpecification").get("SSEType").asString()).isEqualTo("KMS");
        assertThat(create.get("SSESpecification").get("KMSMasterKeyId").asString())
                .isEqualTo(KMS_KEY);
        assertThat(create.get("StreamSpecification").get("StreamEnabled").asBoolean())
                .isTrue();
        assertThat(create.get("StreamSpecification").get("StreamViewType").asString())
                .isEqualTo("NEW_AND_OLD_IMAGES");
        assertThat(create.get("TableClass").asString()).isEqualTo("STANDARD_INFREQUENT_ACCESS");
        assertThat(create.get("DeletionProtectionEnabled").asBoolean()).isTrue();
        assertThat(create.has("GlobalSecondaryIndexes")).isFalse();
        assertThat(create.has("LocalSecondaryIndexes")).isFalse();

        // and TTL and PITR were asked for, though dynalite implements neither, and the restore says so
        JsonNode ttl = onlyRequest("UpdateTimeToLive", "orders-opts");
        assertThat(ttl.get("TimeToLiveSpecification").get("Enabled").asBoolean())
                .isTrue();
        assertThat(ttl.get("TimeToLiveSpecification").get("AttributeName").asString())
                .isEqualTo("validUntil");
        JsonNode pitr = onlyRequest("UpdateContinuousBackups", "orders-opts");
        assertThat(pitr.get("PointInTimeRecoverySpecification")
                        .get("PointInTimeRecoveryEnabled")
                        .asBoolean())
                .isTrue();
        assertThat(warnings("opts-all"))
                .anySatisfy(w -> assertThat(w).contains("UpdateTimeToLive"))
                .anySatisfy(w -> assertThat(w).contains("UpdateContinuousBackups"));

        // and every request sent conforms to the API's model
        for (String op : List.of("CreateTable", "UpdateTimeToLive", "UpdateContinuousBackups")) {
            assertThat(ApiShapes.dynamodb().violations(op, onlyRequest(op, "orders-opts")))
                    .as(op)
                    .isEmpty();
        }
    }

    @Test
    void keepsTheBackupsSettingsWhenNoOptionIsGiven() throws Exception {
        // When a backup is restored into a new table with neither a name nor options
        restore("""
                {"restoreId": "opts-none", "source": {"table": "orders", "backupId": "b-opts"},
                 "destination": {"type": "NEW_TABLE"}}""");

        // Then the table is named after the source and the time of the request
        String name = status.last("opts-none", "RestorePlanned")
                .get("destination")
                .get("tableName")
                .asString();
        assertThat(name).matches("Restored-orders-\\d{14}");

        // and has the backup's indexes, throughput and tags
        TableDescription t = describe(name);
        assertThat(t.globalSecondaryIndexes()).extracting(g -> g.indexName()).containsExactly("byG");
        assertThat(t.localSecondaryIndexes()).extracting(l -> l.indexName()).containsExactly("byL");
        assertThat(t.provisionedThroughput().readCapacityUnits()).isEqualTo(25);
        assertThat(t.provisionedThroughput().writeCapacityUnits()).isEqualTo(40);
        assertThat(tags(t)).containsEntry("env", "prod").containsEntry("dynarestore:restore-id", "opts-none");

        // and TTL on the backup's attribute and PITR were set as they were at backup time
        assertThat(onlyRequest("UpdateTimeToLive", name)
                        .get("TimeToLiveSpecification")
                        .get("AttributeName")
                        .asString())
                .isEqualTo("expiresAt");
        assertThat(onlyRequest("UpdateContinuousBackups", name)
                        .get("PointInTimeRecoverySpecification")
                        .get("PointInTimeRecoveryEnabled")
                        .asBoolean())
                .isTrue();
        JsonNode create = onlyRequest("CreateTable", name);
        assertThat(create.has("SSESpecification"))
                .as("the backup's table used DynamoDB's own key")
                .isFalse();
        assertThat(create.has("StreamSpecification")).isFalse();
    }

    @Test
    void switchesToOnDemandWithTheAwsManagedKeyAndAKeysOnlyStream() throws Exception {
        // When a provisioned table's backup is restored on demand, with the AWS-managed key and a keys-only stream
        restore("""
                {"restoreId": "opts-ondemand", "source": {"table": "orders", "backupId": "b-opts"},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-ondemand", "options": {
                   "billing": {"mode": "PAY_PER_REQUEST"}, "encryption": {"type": "AWS_MANAGED"},
                   "streams": "KEYS_ONLY", "pointInTimeRecovery": false, "tableClass": "STANDARD"}}}""");

        // Then the table is on demand, with its indexes
        TableDescription t = describe("orders-ondemand");
        assertThat(t.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(t.globalSecondaryIndexes()).hasSize(1);
        assertThat(t.localSecondaryIndexes()).hasSize(1);

        // and CreateTable asked for the AWS-managed key (KMS without a key id), a keys-only stream, no index throughput
        JsonNode create = onlyRequest("CreateTable", "orders-ondemand");
        assertThat(create.get("BillingMode").asString()).isEqualTo("PAY_PER_REQUEST");
        assertThat(create.get("SSESpecification").get("SSEType").asString()).isEqualTo("KMS");
        assertThat(create.get("SSESpecification").has("KMSMasterKeyId")).isFalse();
        assertThat(create.get("StreamSpecification").get("StreamViewType").asString())
                .isEqualTo("KEYS_ONLY");
        assertThat(create.get("GlobalSecondaryIndexes").get(0).has("ProvisionedThroughput"))
                .isFalse();
        assertThat(create.has("ProvisionedThroughput")).isFalse();
        assertThat(ApiShapes.dynamodb().violations("CreateTable", create)).isEmpty();

        // and PITR, off by request, was not asked for
        assertThat(requests("UpdateContinuousBackups", "orders-ondemand")).isEmpty();
    }

    static Stream<Arguments> badOptions() {
        String tooMany = IntStream.range(0, 50)
                .mapToObj(i -> "\"k" + i + "\": \"v\"")
                .collect(Collectors.joining(", ", "{", "}"));
        return Stream.of(
                Arguments.of(
                        "malformed KMS ARN",
                        "orders",
                        "{\"encryption\": {\"type\": \"CUSTOMER_MANAGED\", \"kmsKeyArn\": \"alias/my-key\"}}",
                        "/destination/options/encryption/kmsKeyArn"),
                Arguments.of(
                        "KMS key of another region",
                        "orders",
                        "{\"encryption\": {\"type\": \"CUSTOMER_MANAGED\", \"kmsKeyArn\": \""
                                + KMS_KEY.replace("us-east-1", "eu-west-1") + "\"}}",
                        "/destination/options/encryption/kmsKeyArn"),
                Arguments.of(
                        "tags over the limit", "orders", "{\"tags\": " + tooMany + "}", "/destination/options/tags"),
                Arguments.of(
                        "a reserved tag key",
                        "orders",
                        "{\"tags\": {\"aws:owner\": \"me\"}}",
                        "/destination/options/tags/aws:owner"),
                Arguments.of(
                        "LSIs of a backup without LSIs",
                        "plain",
                        "{\"includeLocalSecondaryIndexes\": true}",
                        "/destination/options/includeLocalSecondaryIndexes"),
                Arguments.of(
                        "provisioned without units",
                        "orders",
                        "{\"billing\": {\"mode\": \"PROVISIONED\"}}",
                        "/destination/options/billing"),
                Arguments.of(
                        "TTL without its attribute",
                        "orders",
                        "{\"timeToLive\": {\"enabled\": true}}",
                        "/destination/options/timeToLive/attributeName"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badOptions")
    void refusesAnOptionThatCannotBeAppliedWithTheFieldAndTheFix(
            String name, String table, String options, String field) throws Exception {
        // When a restore asks for a new table with this option
        String backup = table.equals("plain") ? "b-plain" : "b-opts";
        var response = Http.post(stack.apiUri("/restores"), """
                {"source": {"table": "%s", "backupId": "%s"},
                 "destination": {"type": "NEW_TABLE", "tableName": "never-created", "options": %s}}""".formatted(table, backup, options));

        // Then it is refused with problem details that name the field
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("code").asString()).isEqualTo("INVALID_REQUEST");
        assertThat(problem.get("errors").findValuesAsString("field")).contains(field);
        assertThat(problem.get("detail").asString()).isNotBlank();
        assertThat(stack.dynalite.client().listTables().tableNames()).doesNotContain("never-created");
    }

    // ---- helpers ----

    static void restore(String body) throws Exception {
        stack.restoreAndAwaitCompletion(body);
    }

    static TableDescription describe(String table) {
        return stack.dynalite.client().describeTable(b -> b.tableName(table)).table();
    }

    static Map<String, String> tags(TableDescription t) {
        return stack.dynalite.client().listTagsOfResource(b -> b.resourceArn(t.tableArn())).tags().stream()
                .collect(Collectors.toMap(Tag::key, Tag::value));
    }

    static List<JsonNode> requests(String operation, String table) {
        var result = new ArrayList<JsonNode>();
        for (var sent : proxy.sent(operation)) {
            if (sent.body().has("TableName")
                    && sent.body().get("TableName").asString().equals(table)) {
                result.add(sent.body());
            }
        }
        return result;
    }

    static JsonNode onlyRequest(String operation, String table) {
        var found = requests(operation, table);
        assertThat(found).as(operation + " of " + table).hasSize(1);
        return found.get(0);
    }

    static List<String> warnings(String restoreId) {
        var ready = status.last(restoreId, "DestinationReady");
        var list = new ArrayList<String>();
        if (ready != null && ready.has("warnings") && ready.get("warnings").isArray()) {
            ready.get("warnings").forEach(w -> list.add(w.asString()));
        }
        return list;
    }
}
