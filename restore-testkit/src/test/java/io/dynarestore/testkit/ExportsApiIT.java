package io.dynarestore.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ExportConflictException;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportFormat;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ExportType;
import software.amazon.awssdk.services.dynamodb.model.ExportViewType;
import software.amazon.awssdk.services.dynamodb.model.InvalidExportTimeException;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryUnavailableException;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The endpoint's point-in-time recovery and exports, driven by the AWS SDK: a full export is the
 * table as it was at its ExportTime, an incremental one holds each key written in its window once,
 * with its images before and after, and both are laid out as DynamoDB documents it. The oracle is
 * the test's own record of what it wrote, phase by phase.
 */
class ExportsApiIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static Dynalite dynalite;
    private static S3Server s3Server;
    private static S3Client s3;
    private static StreamsEndpoint endpoint;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        dynalite = Dynalite.start();
        s3Server = S3Server.start("exports");
        s3 = s3Server.client();
        endpoint = StreamsEndpoint.inFrontOf(dynalite.endpoint())
                .exportsTo(s3)
                .shortestIncrementalExport(Duration.ofMillis(10));
        dynamo = Dynalite.client(endpoint.endpoint());
    }

    @AfterAll
    static void stop() {
        endpoint.close();
        s3Server.close();
        dynalite.close();
    }

    private static String createTable(String name) {
        dynamo.createTable(b -> b.tableName(name)
                .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                .keySchema(k -> k.attributeName("id").keyType("HASH"))
                .billingMode("PAY_PER_REQUEST"));
        Dynalite.awaitActive(dynamo, name);
        return "arn:aws:dynamodb:us-east-1:000000000000:table/" + name;
    }

    /** Random puts, overwrites and deletes of 40 keys; {@code image} follows what they leave. */
    private static void writePhase(String table, Random random, Map<String, Map<String, AttributeValue>> image) {
        for (int i = 0; i < 60; i++) {
            String id = "k" + random.nextInt(40);
            if (random.nextInt(4) == 0) {
                dynamo.deleteItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS(id))));
                image.remove(id);
            } else {
                var item = Map.of(
                        "id",
                        AttributeValue.fromS(id),
                        "v",
                        AttributeValue.fromN(Integer.toString(random.nextInt(1_000))),
                        "tags",
                        AttributeValue.fromSs(List.of("a", "b" + i)));
                dynamo.putItem(b -> b.tableName(table).item(item));
                image.put(id, item);
            }
        }
    }

    private static Instant pause() {
        sleep(30);
        Instant t = Instant.now();
        sleep(30);
        return t;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ExportDescription completed(String arn) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> dynamo.describeExport(b -> b.exportArn(arn))
                                .exportDescription()
                                .exportStatus()
                        != ExportStatus.IN_PROGRESS);
        return dynamo.describeExport(b -> b.exportArn(arn)).exportDescription();
    }

    private static List<JsonNode> lines(ExportDescription export, JsonNode summary) {
        var lines = new ArrayList<JsonNode>();
        String files = read(summary.path("manifestFilesS3Key").asString());
        for (String entry : files.split("\n")) {
            JsonNode file = JSON.readTree(entry);
            byte[] gz = s3.getObjectAsBytes(b ->
                            b.bucket("exports").key(file.path("dataFileS3Key").asString()))
                    .asByteArray();
            assertThat(file.path("md5Checksum").asString()).isEqualTo(md5(gz));
            try (var in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                var inFile = text.lines().map(JSON::readTree).toList();
                assertThat(inFile).hasSize(file.path("itemCount").asInt());
                lines.addAll(inFile);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(lines)
                .hasSize(summary.path("itemCount").asInt())
                .hasSize(export.itemCount().intValue());
        return lines;
    }

    private static String read(String key) {
        return s3.getObjectAsBytes(b -> b.bucket("exports").key(key)).asUtf8String();
    }

    private static String md5(byte[] bytes) {
        try {
            return Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String v(JsonNode image) {
        return image.path("v").path("N").asString();
    }

    @Test
    void aFullExportIsTheTableAtItsExportTimeAndAnIncrementalOneEachKeyWrittenInItsWindowOnce() {
        // Given a table with point-in-time recovery, written in three phases with an instant between each
        String arn = createTable("exported");
        var recovery = dynamo.updateContinuousBackups(b -> b.tableName("exported")
                        .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)))
                .continuousBackupsDescription()
                .pointInTimeRecoveryDescription();
        assertThat(recovery.pointInTimeRecoveryStatus()).isEqualTo(PointInTimeRecoveryStatus.ENABLED);
        var random = new Random(19);
        var image = new HashMap<String, Map<String, AttributeValue>>();
        writePhase("exported", random, image);
        Instant t1 = pause();
        var atT1 = new HashMap<>(image);
        writePhase("exported", random, image);
        Instant t2 = pause();
        var atT2 = new HashMap<>(image);
        writePhase("exported", random, image);

        // When the table is exported in full at T1, and incrementally over [T1, T2)
        String full = dynamo.exportTableToPointInTime(b -> b.tableArn(arn)
                        .exportTime(t1)
                        .s3Bucket("exports")
                        .s3Prefix("vault/x")
                        .exportFormat(ExportFormat.DYNAMODB_JSON)
                        .clientToken("full-t1"))
                .exportDescription()
                .exportArn();
        String incremental = dynamo.exportTableToPointInTime(b -> b.tableArn(arn)
                        .s3Bucket("exports")
                        .s3Prefix("vault/y")
                        .exportType(ExportType.INCREMENTAL_EXPORT)
                        .incrementalExportSpecification(s -> s.exportFromTime(t1)
                                .exportToTime(t2)
                                .exportViewType(ExportViewType.NEW_AND_OLD_IMAGES)))
                .exportDescription()
                .exportArn();

        // Then the full export holds the table as it was at T1, laid out as DynamoDB lays it out
        ExportDescription fullDone = completed(full);
        assertThat(fullDone.exportStatus()).isEqualTo(ExportStatus.COMPLETED);
        String id = full.substring(full.lastIndexOf('/') + 1);
        assertThat(id).matches("[0-9]{14}-[0-9a-f]{8}");
        assertThat(fullDone.exportManifest()).isEqualTo("vault/x/AWSDynamoDB/" + id + "/manifest-summary.json");
        assertThat(read("vault/x/AWSDynamoDB/" + id + "/_started")).isEmpty();
        JsonNode summary = JSON.readTree(read(fullDone.exportManifest()));
        assertThat(summary.path("exportType").asString()).isEqualTo("FULL_EXPORT");
        assertThat(summary.path("outputFormat").asString()).isEqualTo("DYNAMODB_JSON");
        assertThat(summary.path("tableArn").asString()).isEqualTo(arn);
        assertThat(Instant.parse(summary.path("exportTime").asString()))
                .isEqualTo(t1.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        var exported = new HashMap<String, String>();
        for (JsonNode line : lines(fullDone, summary)) {
            exported.put(line.path("Item").path("id").path("S").asString(), v(line.path("Item")));
        }
        var expected = new HashMap<String, String>();
        atT1.forEach((k, item) -> expected.put(k, item.get("v").n()));
        assertThat(exported).isEqualTo(expected);

        // and the incremental export holds each key written in [T1, T2) once, its images at T1 and T2
        ExportDescription incDone = completed(incremental);
        JsonNode incSummary = JSON.readTree(read(incDone.exportManifest()));
        assertThat(incSummary.path("exportType").asString()).isEqualTo("INCREMENTAL_EXPORT");
        assertThat(incSummary.path("outputView").asString()).isEqualTo("NEW_AND_OLD_IMAGES");
        var seen = new HashMap<String, JsonNode>();
        for (JsonNode line : lines(incDone, incSummary)) {
            String key = line.path("Keys").path("id").path("S").asString();
            assertThat(seen.put(key, line)).as("key %s twice", key).isNull();
            assertThat(line.path("Metadata")
                            .path("WriteTimestampMicros")
                            .path("N")
                            .asLong())
                    .isBetween(t1.toEpochMilli() * 1000, t2.toEpochMilli() * 1000);
            assertThat(line.has("OldImage") ? v(line.path("OldImage")) : null)
                    .isEqualTo(atT1.containsKey(key) ? atT1.get(key).get("v").n() : null);
            assertThat(line.has("NewImage") ? v(line.path("NewImage")) : null)
                    .isEqualTo(atT2.containsKey(key) ? atT2.get(key).get("v").n() : null);
        }
        var changed = new java.util.HashSet<String>();
        atT2.forEach((k, item) -> {
            if (!item.equals(atT1.get(k))) {
                changed.add(k);
            }
        });
        atT1.keySet().stream().filter(k -> !atT2.containsKey(k)).forEach(changed::add);
        assertThat(seen.keySet()).containsAll(changed);
    }

    @Test
    void anExportIsRefusedAsDynamoDbRefusesItAndAClientTokenMakesItIdempotent() {
        // Given a table without point-in-time recovery
        String arn = createTable("unprotected");

        // Then an export of it is refused
        assertThatThrownBy(() ->
                        dynamo.exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket("exports")))
                .isInstanceOf(PointInTimeRecoveryUnavailableException.class);
        assertThat(dynamo.describeContinuousBackups(b -> b.tableName("unprotected"))
                        .continuousBackupsDescription()
                        .pointInTimeRecoveryDescription()
                        .pointInTimeRecoveryStatus())
                .isEqualTo(PointInTimeRecoveryStatus.DISABLED);

        // When recovery is enabled
        dynamo.updateContinuousBackups(b ->
                b.tableName("unprotected").pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
        sleep(20);

        // Then a time before it, or a value outside AWS's model, is refused
        assertThatThrownBy(() -> dynamo.exportTableToPointInTime(b -> b.tableArn(arn)
                        .s3Bucket("exports")
                        .exportTime(Instant.now().minusSeconds(3600))))
                .isInstanceOf(InvalidExportTimeException.class);
        assertThatThrownBy(() -> dynamo.exportTableToPointInTime(
                        b -> b.tableArn(arn).s3Bucket("exports").exportFormat("XML")))
                .hasMessageContaining("ExportFormat");

        // and the same client token gives the same export, with other parameters a conflict
        Instant at = Instant.now();
        String first = dynamo.exportTableToPointInTime(
                        b -> b.tableArn(arn).s3Bucket("exports").exportTime(at).clientToken("once"))
                .exportDescription()
                .exportArn();
        String again = dynamo.exportTableToPointInTime(
                        b -> b.tableArn(arn).s3Bucket("exports").exportTime(at).clientToken("once"))
                .exportDescription()
                .exportArn();
        assertThat(again).isEqualTo(first);
        assertThatThrownBy(() -> dynamo.exportTableToPointInTime(b -> b.tableArn(arn)
                        .s3Bucket("exports")
                        .s3Prefix("elsewhere")
                        .exportTime(at)
                        .clientToken("once")))
                .isInstanceOf(ExportConflictException.class);
        assertThat(completed(first).itemCount()).isZero();
        assertThat(dynamo.listExports(b -> b.tableArn(arn)).exportSummaries()).hasSize(1);
    }
}
