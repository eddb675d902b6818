package io.dynarestore.planner.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Destination.Billing;
import io.dynarestore.contracts.request.Destination.Encryption;
import io.dynarestore.contracts.request.Destination.TableOptions;
import io.dynarestore.core.TableDescriptions;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.vault.SnapMetadata;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.testkit.ApiShapes;
import io.dynarestore.testkit.SentRequests;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BackupDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The requests that no local server implements (ImportTable, RestoreTableFromBackup,
 * UpdateTimeToLive, UpdateContinuousBackups) and those dynalite accepts but ignores parts of
 * (CreateTable's SSE, stream, class, deletion protection, tags), exactly as the SDK would put them
 * on the wire, checked against AWS's published model of the DynamoDB API.
 */
class TableRequestsContractTest {

    static final String KEY = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    static final String SNAP_ARN =
            "arn:aws:dynamodb:us-east-1:000000000000:table/orders/backup/01700000000000-abcd1234";

    private final SentRequests sent = new SentRequests();
    private final DynamoDbClient dynamo = DynamoDbClient.builder()
            .endpointOverride(URI.create("http://127.0.0.1:9"))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "s")))
            .overrideConfiguration(c -> c.addExecutionInterceptor(sent))
            .build();

    @AfterEach
    void close() {
        dynamo.close();
    }

    static Stream<Arguments> optionSets() {
        return Stream.of(
                Arguments.of("no options", null),
                Arguments.of(
                        "every option",
                        new TableOptions(
                                true,
                                false,
                                Map.of("team", "dr"),
                                new Encryption(Encryption.Type.CUSTOMER_MANAGED, KEY),
                                Destination.StreamView.KEYS_ONLY,
                                true,
                                new Billing(Billing.Mode.PROVISIONED, 10L, 20L),
                                true,
                                new Destination.TimeToLive(true, "exp"),
                                Destination.TableClass.STANDARD_INFREQUENT_ACCESS)),
                Arguments.of(
                        "on demand, AWS managed key, no indexes",
                        new TableOptions(
                                false,
                                false,
                                null,
                                new Encryption(Encryption.Type.AWS_MANAGED, null),
                                Destination.StreamView.DISABLED,
                                false,
                                new Billing(Billing.Mode.PAY_PER_REQUEST, null, null),
                                false,
                                new Destination.TimeToLive(false, null),
                                Destination.TableClass.STANDARD)),
                Arguments.of(
                        "DynamoDB's own key",
                        new TableOptions(
                                null,
                                null,
                                null,
                                new Encryption(Encryption.Type.DEFAULT, null),
                                null,
                                null,
                                null,
                                null,
                                null,
                                null)));
    }

    private SentRequests.Sent capture(Runnable call, String operation) {
        assertThatThrownBy(call::run).isInstanceOf(SentRequests.Captured.class);
        return sent.only(operation);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("optionSets")
    void sendsCreateTableAsTheApiDefinesIt(String name, TableOptions options) {
        // Given the settings of a restore of a configured backup
        TableDescription backup = TableDescriptions.configured(KEY);
        var settings = TableSettings.of("r-1", backup, List.of(), null, null, options);

        // When the CreateTable request is sent
        var body = capture(
                        () -> dynamo.createTable(TableSpecs.createRequest(backup, "orders-restored", settings)),
                        "CreateTable")
                .body();

        // Then it conforms to the API, and carries the settings dynalite would silently drop
        assertThat(ApiShapes.dynamodb().violations("CreateTable", body)).isEmpty();
        assertThat(body.get("Tags").toString()).contains("dynarestore:restore-id");
        if (options != null
                && options.encryption() != null
                && options.encryption().type() == Encryption.Type.DEFAULT) {
            assertThat(body.has("SSESpecification")).isFalse();
        }
    }

    @Test
    void sendsAWarmOnDemandCreateTableAsTheApiDefinesIt() {
        // Given an on-demand restore of 100,000,000 write units, to be written within the hour
        TableDescription backup = TableDescriptions.configured(KEY);
        var options =
                new TableOptions(null, null, null).withBilling(new Billing(Billing.Mode.PAY_PER_REQUEST, null, null));
        var settings = TableSettings.of("r-1", backup, List.of(), null, null, options);
        Long warm = WarmThroughputs.writes(
                100_000_000L,
                settings.onDemand(),
                new PlannerProperties.WarmThroughput(true, Duration.ofHours(1), 40_000));

        // When its CreateTable request is sent
        var body = capture(
                        () -> dynamo.createTable(TableSpecs.createRequest(backup, "orders-restored", settings, warm)),
                        "CreateTable")
                .body();

        // Then it conforms to the API and asks for the table warm for 27,778 writes a second
        assertThat(ApiShapes.dynamodb().violations("CreateTable", body)).isEmpty();
        assertThat(body.get("BillingMode").asString()).isEqualTo("PAY_PER_REQUEST");
        assertThat(body.get("WarmThroughput").get("WriteUnitsPerSecond").asLong())
                .isEqualTo(27_778);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("optionSets")
    void sendsImportTableAsTheApiDefinesIt(String name, TableOptions options) {
        // Given the settings of a restore by import
        TableDescription backup = TableDescriptions.configured(KEY);
        var settings = TableSettings.of("r-1", backup, List.of(), null, null, options);
        var request = TableSpecs.importRequest(
                "r-1",
                "vault",
                "_staging/r-1/import/",
                "000000000000",
                TableSpecs.importParameters(backup, "orders-restored", settings));

        // When it is sent
        JsonNode body =
                capture(() -> dynamo.importTable(request), "ImportTable").body();

        // Then it conforms to the API: gzip DynamoDB JSON from the staging prefix, the table's keys and indexes
        assertThat(ApiShapes.dynamodb().violations("ImportTable", body)).isEmpty();
        assertThat(body.get("InputFormat").asString()).isEqualTo("DYNAMODB_JSON");
        assertThat(body.get("InputCompressionType").asString()).isEqualTo("GZIP");
        assertThat(body.get("ClientToken").asString()).isEqualTo("r-1");
        assertThat(body.get("S3BucketSource").get("S3KeyPrefix").asString()).isEqualTo("_staging/r-1/import/");
        assertThat(body.get("TableCreationParameters").get("KeySchema").size()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("optionSets")
    void sendsRestoreTableFromBackupWithIndexAndEncryptionOverridesAsTheApiDefinesThem(
            String name, TableOptions options) {
        // Given a Snap of a table with a GSI and an LSI
        var snap = snap();
        var settings = TableSettings.of("r-1", snap.sourceTable(), List.of(), null, null, options);
        var request =
                TableSpecs.snapRequest(snap.backupArn(), snap.sourceTable(), "orders-restored", options, settings);

        // When it is sent
        JsonNode body = capture(() -> dynamo.restoreTableFromBackup(request), "RestoreTableFromBackup")
                .body();

        // Then it conforms to the API and overrides only what the options change
        assertThat(ApiShapes.dynamodb().violations("RestoreTableFromBackup", body))
                .isEmpty();
        assertThat(body.get("BackupArn").asString()).isEqualTo(SNAP_ARN);
        boolean dropsGsis = options != null && Boolean.FALSE.equals(options.includeGlobalSecondaryIndexes());
        boolean dropsLsis = options != null && Boolean.FALSE.equals(options.includeLocalSecondaryIndexes());
        if (dropsGsis) {
            assertThat(body.get("GlobalSecondaryIndexOverride").size()).isZero();
        }
        assertThat(body.has("LocalSecondaryIndexOverride")).isEqualTo(dropsLsis);
        assertThat(body.has("SSESpecificationOverride")).isEqualTo(options != null && options.encryption() != null);
        if (options != null
                && options.encryption() != null
                && options.encryption().type() == Encryption.Type.DEFAULT) {
            assertThat(body.get("SSESpecificationOverride").get("Enabled").asBoolean())
                    .isFalse();
        }
        assertThat(body.has("BillingModeOverride")).isEqualTo(options != null && options.billing() != null);
    }

    @Test
    void sendsTheSettingsNoCreateCallTakesAsTheApiDefinesThem() {
        var stream = capture(
                        () -> dynamo.updateTable(b -> b.tableName("orders-restored")
                                .streamSpecification(s -> s.streamEnabled(true).streamViewType("NEW_IMAGE"))),
                        "UpdateTable")
                .body();
        assertThat(ApiShapes.dynamodb().violations("UpdateTable", stream)).isEmpty();
        var ttl = capture(
                        () -> dynamo.updateTimeToLive(b -> b.tableName("orders-restored")
                                .timeToLiveSpecification(t -> t.enabled(true).attributeName("exp"))),
                        "UpdateTimeToLive")
                .body();
        assertThat(ApiShapes.dynamodb().violations("UpdateTimeToLive", ttl)).isEmpty();
        var pitr = capture(
                        () -> dynamo.updateContinuousBackups(b -> b.tableName("orders-restored")
                                .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true))),
                        "UpdateContinuousBackups")
                .body();
        assertThat(ApiShapes.dynamodb().violations("UpdateContinuousBackups", pitr))
                .isEmpty();
    }

    @Test
    void theModelCheckRefusesWhatDynamoDbWouldRefuse() {
        // Given an ImportTable body with a missing member, an unknown member, a bad enum and a short name
        ObjectNode body = (ObjectNode) SdkJson.toJson(TableSpecs.importRequest(
                "r-1",
                "vault",
                "p/",
                null,
                TableSpecs.importParameters(
                        TableDescriptions.ordersWithGsi(),
                        "orders-restored",
                        TableSettings.of("r-1", TableDescriptions.ordersWithGsi(), List.of(), null, null, null))));
        body.remove("InputFormat");
        body.put("Tags", "x");
        body.put("InputCompressionType", "BZIP2");
        ((ObjectNode) body.get("TableCreationParameters")).put("TableName", "ab");

        // Then each is named
        assertThat(ApiShapes.dynamodb().violations("ImportTable", body))
                .containsExactlyInAnyOrder(
                        "ImportTable.InputFormat: required",
                        "ImportTable.Tags: not a member of ImportTableInput",
                        "ImportTable.InputCompressionType: 'BZIP2' is not a value of InputCompressionType",
                        "ImportTable.TableCreationParameters.TableName: length 2 is outside {\"min\":3,\"max\":255}");
    }

    static SnapMetadata snap() {
        String json = """
                {
                  "BackupDetails": {"BackupArn": "%s", "BackupName": "nightly", "BackupStatus": "AVAILABLE",
                                    "BackupType": "USER", "BackupCreationDateTime": 1700000000},
                  "SourceTableDetails": {
                    "TableName": "orders", "TableId": "t-1", "TableArn": "arn:aws:dynamodb:us-east-1:000000000000:table/orders",
                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                    "TableCreationDateTime": 1600000000, "ItemCount": 1234, "TableSizeBytes": 567890,
                    "BillingMode": "PROVISIONED",
                    "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 7}
                  },
                  "SourceTableFeatureDetails": {
                    "LocalSecondaryIndexes": [{"IndexName": "byDate",
                      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "d", "KeyType": "RANGE"}],
                      "Projection": {"ProjectionType": "ALL"}}],
                    "GlobalSecondaryIndexes": [{"IndexName": "byG",
                      "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                      "Projection": {"ProjectionType": "KEYS_ONLY"},
                      "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 2}}]
                  }
                }
                """.formatted(SNAP_ARN);
        var description = SdkJson.fromJson(json, BackupDescription.builder());
        return SnapMetadata.of("nightly-1", Instant.parse("2023-11-14T22:13:20Z"), null, description);
    }
}
