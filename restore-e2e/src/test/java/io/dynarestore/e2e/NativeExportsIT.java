package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.TopicRecorder;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/**
 * Native DynamoDB exports, laid out exactly as DynamoDB writes them, registered where they lie
 * (another bucket) and restored without conversion, LSI included.
 */
class NativeExportsIT {

    static final String FULL = "01764583200000-a1b2c3d4";
    static final String INCREMENTAL = "01764584100000-e5f6a7b8";
    static final List<String> KEYS = List.of("sku", "ts");
    static RestoreStack stack;
    static TopicRecorder status;
    static Path fixtures;

    @BeforeAll
    static void startStack() throws Exception {
        // exports may be registered from the bucket DynamoDB exports into (SharedStack.EXPORT_BUCKET), and nowhere else
        stack = SharedStack.get();
        status = stack.followStatus();
        fixtures = Path.of(NativeExportsIT.class.getResource("/native-export").toURI());
        var s3 = stack.s3.client();
        SharedStack.exportBucket(stack);
        try (Stream<Path> files = Files.walk(fixtures.resolve("exports"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String key = fixtures.relativize(f).toString().replace('\\', '/');
                s3.putObject(b -> b.bucket("customer-exports").key(key), RequestBody.fromFile(f));
            }
        }
    }

    @AfterAll
    static void stopStack() {
        status.close();
    }

    static String registration(String exportId, boolean withDescription) throws Exception {
        String description = withDescription
                ? ",\"tableDescription\":"
                        + io.dynarestore.contracts.Json.mapper()
                                .readTree(Files.readString(fixtures.resolve("describe-table.json")))
                                .get("Table")
                : "";
        // registered now, the export of a year ago is kept restorable explicitly (by default: 35 days after it was
        // taken)
        return "{\"s3Uri\":\"s3://customer-exports/exports/AWSDynamoDB/" + exportId + "/\"" + description
                + ",\"expiresAt\":\"2099-01-01T00:00:00Z\"}";
    }

    @Test
    void restoresNativeFullAndIncrementalExportsRegisteredWhereTheyLie() throws Exception {
        // When the full export is registered with the table's description, and the incremental one alone
        var full = Http.post(stack.apiUri("/tables/catalog/exports"), registration(FULL, true));
        var again = Http.post(stack.apiUri("/tables/catalog/exports"), registration(FULL, true));
        var incremental = Http.post(stack.apiUri("/tables/catalog/exports"), registration(INCREMENTAL, false));

        // Then the full export is a backup and the incremental one is coverage exact at its end
        assertThat(full.status()).as(full.body()).isEqualTo(201);
        assertThat(full.json().get("kind").asString()).isEqualTo("FULL");
        assertThat(full.json().get("id").asString()).isEqualTo(FULL);
        assertThat(again.status()).isEqualTo(200);
        assertThat(incremental.status()).as(incremental.body()).isEqualTo(201);
        assertThat(incremental.json().get("kind").asString()).isEqualTo("INCREMENTAL");
        var backups = Http.get(stack.apiUri("/tables/catalog/backups")).json().get("backups");
        assertThat(backups.get(0).get("backupId").asString()).isEqualTo(FULL);
        assertThat(backups.get(0).get("itemCount").asLong()).isEqualTo(6);
        var windows = Http.get(stack.apiUri("/tables/catalog/pitr-windows")).json();
        assertThat(windows.get("latestRestorable").asString()).isEqualTo("2025-12-01T10:14:59Z");

        // and the full export restores, its LSI kept (DynamoDB's ImportTable could not keep it)
        String byBackup = restore("{\"source\":{\"table\":\"catalog\",\"backupId\":\"" + FULL + "\"},"
                + "\"destination\":{\"type\":\"NEW_TABLE\",\"tableName\":\"catalog-full\"}}");
        var base = fullExportItems();
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), "catalog-full", KEYS))
                .isEqualTo(HistoryFixtures.digests(base));
        var table = stack.dynalite
                .client()
                .describeTable(b -> b.tableName("catalog-full"))
                .table();
        assertThat(table.localSecondaryIndexes()).extracting(l -> l.indexName()).containsExactly("byPrice");
        assertThat(status.last(byBackup, "RestoreCompleted").get("itemsWritten").asLong())
                .isEqualTo(6);

        // and the end of the incremental export restores: sku-1 changed, sku-2 deleted, sku-9 created
        restore("{\"source\":{\"table\":\"catalog\",\"pointInTime\":\"2025-12-01T10:14:59Z\"},"
                + "\"destination\":{\"type\":\"NEW_TABLE\",\"tableName\":\"catalog-pit\"}}");
        var expected = new TreeMap<>(base);
        for (JsonNode change : incrementalLines()) {
            var keys = DynamoJson.fromJson(change.get("Keys").toString());
            if (change.has("NewImage")) {
                expected.put(
                        ItemDigests.key(keys, KEYS),
                        DynamoJson.fromJson(change.get("NewImage").toString()));
            } else {
                expected.remove(ItemDigests.key(keys, KEYS));
            }
        }
        assertThat(expected).hasSize(6).containsKey("S:\"sku-9\"|N:1|").doesNotContainKey("S:\"sku-2\"|N:1|");
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), "catalog-pit", KEYS))
                .isEqualTo(HistoryFixtures.digests(expected));

        // while a second inside the compacted export is not restorable
        var inside = Http.post(
                stack.apiUri("/restores"),
                "{\"source\":{\"table\":\"catalog\",\"pointInTime\":"
                        + "\"2025-12-01T10:05:00Z\"},\"destination\":{\"type\":\"NEW_TABLE\"}}");
        assertThat(inside.status()).isEqualTo(422);
        assertThat(inside.json().get("detail").asString()).contains("2025-12-01T10:14:59Z");
    }

    @Test
    void refusesToRegisterWhatIsNotAnExportOrLacksItsTable() throws Exception {
        var nothing = Http.post(
                stack.apiUri("/tables/catalog/exports"),
                "{\"s3Uri\":\"s3://customer-exports/exports/AWSDynamoDB/nope/\"}");
        assertThat(nothing.status()).isEqualTo(422);
        assertThat(nothing.json().get("detail").asString()).contains("manifest-summary.json");
        var noTable = Http.post(stack.apiUri("/tables/gone/exports"), registration(FULL, false));
        assertThat(noTable.status()).isEqualTo(422);
        assertThat(noTable.json().get("detail").asString()).contains("tableDescription");
        var notS3 = Http.post(stack.apiUri("/tables/catalog/exports"), "{\"s3Uri\":\"/tmp/export\"}");
        assertThat(notS3.status()).isEqualTo(400);
    }

    @Test
    void theCommandLineRegistersAnExportShowsTheWindowsAndStartsARestore() throws Exception {
        // Given the dynarestore command line pointed at the API
        String exportUri = "s3://customer-exports/exports/AWSDynamoDB/";

        // When it registers both exports under another table name and asks for the windows
        var full = cli(
                "register-export",
                "catalog",
                exportUri + FULL + "/",
                fixtures.resolve("describe-table.json").toString(),
                "--expires",
                "2099-01-01T00:00:00Z");
        var incremental = cli("register-export", "catalog", exportUri + INCREMENTAL + "/");
        var windows = cli("pitr-windows", "catalog");
        var restore = cli("restore", "catalog", "--at", "latest", "--into", "catalog-cli-latest", "--id", "cli-1");

        // Then each answered as the API does
        assertThat(full.get("kind").asString()).isEqualTo("FULL");
        assertThat(incremental.get("kind").asString()).isEqualTo("INCREMENTAL");
        assertThat(windows.get("latestRestorable").asString()).isEqualTo("2025-12-01T10:14:59Z");
        assertThat(restore.get("restoreId").asString()).isEqualTo("cli-1");
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        "COMPLETED".equals(cli("status", "cli-1").get("state").asString()));
        assertThat(cli("status", "cli-1").get("itemsWritten").asLong()).isEqualTo(6);
    }

    @Test
    void refusesToRegisterTheVaultAnotherTablesExportOrAnExportOutsideTheExportBuckets() throws Exception {
        // Given a crafted export in the export bucket whose ARN would make its id climb out of the vault's prefix
        var s3 = stack.s3.client();
        s3.putObject(
                b -> b.bucket("customer-exports").key("exports/AWSDynamoDB/crafted/manifest-summary.json"),
                RequestBody.fromString("{\"exportArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/catalog/export/"
                        + "..\",\"tableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/catalog\",\"exportType\":"
                        + "\"INCREMENTAL_EXPORT\",\"exportFromTime\":\"2025-12-01T10:15:00Z\",\"exportToTime\":"
                        + "\"2025-12-01T10:30:00Z\",\"outputFormat\":\"DYNAMODB_JSON\"}"));
        s3.createBucket(b -> b.bucket("elsewhere"));

        // When each is registered
        var asOrders = Http.post(stack.apiUri("/tables/orders/exports"), registration(INCREMENTAL, false));
        var vault = Http.post(
                stack.apiUri("/tables/catalog/exports"),
                "{\"s3Uri\":\"s3://vault/000000000000/us-east-1/catalog/pitr/x/\"}");
        var outside = Http.post(
                stack.apiUri("/tables/catalog/exports"),
                "{\"s3Uri\":\"s3://elsewhere/exports/AWSDynamoDB/" + INCREMENTAL + "/\"}");
        var climbing = Http.post(
                stack.apiUri("/tables/catalog/exports"),
                "{\"s3Uri\":\"s3://customer-exports/exports/AWSDynamoDB/crafted/\"}");

        // Then each is refused with the reason, and orders has no point-in-time history
        assertThat(asOrders.status()).as(asOrders.body()).isEqualTo(422);
        assertThat(asOrders.json().get("detail").asString())
                .contains("table/catalog")
                .contains("not of table orders");
        assertThat(vault.status()).isEqualTo(422);
        assertThat(vault.json().get("detail").asString()).contains("the vault itself");
        assertThat(outside.status()).isEqualTo(422);
        assertThat(outside.json().get("detail").asString()).contains("api.exports.allowed-locations");
        assertThat(climbing.status()).as(climbing.body()).isEqualTo(422);
        assertThat(climbing.json().get("detail").asString()).contains("'..'");
        assertThat(Http.get(stack.apiUri("/tables/orders/exports")).json()).isEmpty();
    }

    @Test
    void takesTheDescriptionAsEveryAwsCliPrintsItAndNamesTheMemberItCannotRead() throws Exception {
        // Given the fixture's describe-table with AWS CLI v2's ISO-8601 timestamps
        var v2 = (tools.jackson.databind.node.ObjectNode) io.dynarestore.contracts.Json.mapper()
                .readTree(Files.readString(fixtures.resolve("describe-table.json")));
        ((tools.jackson.databind.node.ObjectNode) v2.get("Table"))
                .put("CreationDateTime", "2025-11-24T16:00:00.500000+00:00");
        String body = "{\"s3Uri\":\"s3://customer-exports/exports/AWSDynamoDB/" + FULL + "/\",\"tableDescription\":"
                + v2 + "}";

        // When it is registered whole (as the CLI prints it), and once with a timestamp that is no time
        var taken = Http.post(stack.apiUri("/tables/catalog/exports"), body);
        var broken = Http.post(
                stack.apiUri("/tables/catalog/exports"),
                body.replace("2025-11-24T16:00:00.500000+00:00", "last tuesday"));

        // Then the first is registered (or was already), and the second is a 400 naming the member
        assertThat(taken.status()).as(taken.body()).isIn(200, 201);
        assertThat(broken.status()).as(broken.body()).isEqualTo(400);
        assertThat(broken.json().get("errors").get(0).get("field").asString())
                .isEqualTo("/tableDescription/CreationDateTime");
    }

    static JsonNode cli(String... args) throws Exception {
        return Cli.run(stack.apiUri(""), args);
    }

    static String restore(String body) throws Exception {
        var response = Http.post(stack.apiUri("/restores"), body);
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        String id = response.json().get("restoreId").asString();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(status.last(id, "RestoreFailed")).isNull();
            assertThat(status.last(id, "RestoreCompleted")).isNotNull();
        });
        return id;
    }

    static TreeMap<String, Map<String, AttributeValue>> fullExportItems() throws Exception {
        var items = new TreeMap<String, Map<String, AttributeValue>>();
        try (Stream<Path> files = Files.list(fixtures.resolve("exports/AWSDynamoDB/" + FULL + "/data"))) {
            for (Path f : files.toList()) {
                for (JsonNode line : lines(f)) {
                    var item = DynamoJson.fromJson(line.get("Item").toString());
                    items.put(ItemDigests.key(item, KEYS), item);
                }
            }
        }
        return items;
    }

    static List<JsonNode> incrementalLines() throws Exception {
        try (Stream<Path> files = Files.list(fixtures.resolve("exports/AWSDynamoDB/" + INCREMENTAL + "/data"))) {
            var all = new ArrayList<JsonNode>();
            for (Path f : files.toList()) {
                all.addAll(lines(f));
            }
            return all;
        }
    }

    static List<JsonNode> lines(Path gz) throws Exception {
        String text = new String(new GZIPInputStream(new ByteArrayInputStream(Files.readAllBytes(gz))).readAllBytes());
        var result = new ArrayList<JsonNode>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                result.add(io.dynarestore.contracts.Json.mapper().readTree(line));
            }
        }
        return result;
    }
}
