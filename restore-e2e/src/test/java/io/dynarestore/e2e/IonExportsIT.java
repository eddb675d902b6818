package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.NativeExportFixture;
import io.dynarestore.testkit.NativeExportFixture.Line;
import io.dynarestore.testkit.RandomItems;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/**
 * Native exports in ION format, registered where they lie and restored like DYNAMODB_JSON ones: the
 * same items and changes exported in both formats (twins) restore to equal tables, at the backup and
 * at the end of the change log, and export to the same CSV bytes, every attribute type included.
 */
class IonExportsIT {

    static final List<String> KEYS = List.of("pk", "sk");
    static final Instant TAKEN = Instant.parse("2026-11-20T10:00:00Z");
    /** The incremental exports' end: exact there only, so the last restorable second is the one before it. */
    static final Instant CHANGED = Instant.parse("2026-11-20T10:15:00Z");

    static RestoreStack stack;
    static List<Map<String, AttributeValue>> items;
    static List<Line> changes;

    @BeforeAll
    static void exportTwins() {
        stack = SharedStack.get();
        SharedStack.exportBucket(stack);
        // 400 random items of every type, then overwrites, deletes and creates over a quarter of an hour
        var random = new RandomItems(2026, RandomItems.Shape.simple());
        items = random.items(400);
        changes = new ArrayList<>();
        Random r = new Random(2026);
        long t = TAKEN.getEpochSecond() * 1_000_000L;
        for (int i = 0; i < 120; i++) {
            t += 1 + r.nextInt(7_000_000);
            int index = r.nextInt(450);
            var before = index < 400 ? items.get(index) : null;
            var after = r.nextInt(4) == 0 ? null : random.item(index, 1 + i);
            var key = Map.of(
                    "pk", random.item(index).get("pk"), "sk", random.item(index).get("sk"));
            if (before == null && after == null) {
                continue;
            }
            changes.add(Line.change(key, before, after, t));
        }
        for (String format : List.of("DYNAMODB_JSON", "ION")) {
            String table = table(format);
            String arn = "arn:aws:dynamodb:us-east-1:000000000000:table/" + table;
            NativeExportFixture.write(
                    stack.s3.client(),
                    SharedStack.EXPORT_BUCKET,
                    "twins/" + table,
                    full(format),
                    arn,
                    format,
                    null,
                    TAKEN,
                    items.stream().map(Line::item).toList(),
                    150);
            NativeExportFixture.write(
                    stack.s3.client(),
                    SharedStack.EXPORT_BUCKET,
                    "twins/" + table,
                    incremental(format),
                    arn,
                    format,
                    TAKEN,
                    CHANGED,
                    changes,
                    50);
        }
    }

    static String table(String format) {
        return "ION".equals(format) ? "twin-ion" : "twin-json";
    }

    static String full(String format) {
        return "ION".equals(format) ? "01763632800000-ion0full" : "01763632800000-jsonfull";
    }

    static String incremental(String format) {
        return "ION".equals(format) ? "01763633700000-ion0incr" : "01763633700000-jsonincr";
    }

    @Test
    void ionTwinsRegisterAndRestoreToTheTablesTheirJsonTwinsRestoreTo() throws Exception {
        for (String format : List.of("DYNAMODB_JSON", "ION")) {
            // When both exports of each format are registered where they lie
            String table = table(format);
            String root = "s3://" + SharedStack.EXPORT_BUCKET + "/twins/" + table + "/AWSDynamoDB/";
            String description = SdkJson.toJson(HistoryFixtures.description(table, RandomItems.Shape.simple()))
                    .toString();
            var full = Http.post(
                    stack.apiUri("/tables/" + table + "/exports"),
                    "{\"s3Uri\":\"" + root + full(format) + "/\",\"tableDescription\":" + description
                            + ",\"expiresAt\":\"2099-01-01T00:00:00Z\"}");
            var incr = Http.post(
                    stack.apiUri("/tables/" + table + "/exports"),
                    "{\"s3Uri\":\"" + root + incremental(format) + "/\"}");

            // Then each is taken: the full one a backup, the incremental one coverage up to its end
            assertThat(full.status()).as(full.body()).isEqualTo(201);
            assertThat(incr.status()).as(incr.body()).isEqualTo(201);
            stack.restoreAndAwaitCompletion("{\"source\":{\"table\":\"" + table + "\",\"backupId\":\"" + full(format)
                    + "\"},\"destination\":{\"type\":\"NEW_TABLE\",\"tableName\":\"" + table + "-full\"}}");
            stack.restoreAndAwaitCompletion(
                    "{\"source\":{\"table\":\"" + table + "\",\"pointInTime\":\"" + CHANGED.minusSeconds(1)
                            + "\"},\"destination\":{\"type\":\"NEW_TABLE\",\"tableName\":\"" + table + "-pit\"}}");
        }

        // Then the ION twin's tables equal the JSON twin's, and those equal the items and the changes
        var dynamo = stack.dynalite.client();
        var fullJson = ItemDigests.ofTable(dynamo, "twin-json-full", KEYS);
        assertThat(ItemDigests.ofTable(dynamo, "twin-ion-full", KEYS)).isEqualTo(fullJson);
        assertThat(fullJson).isEqualTo(ItemDigests.of(items, KEYS));
        var expected = new TreeMap<String, Map<String, AttributeValue>>();
        items.forEach(i -> expected.put(ItemDigests.key(i, KEYS), i));
        for (Line c : changes) {
            if (c.newImage() == null) {
                expected.remove(ItemDigests.key(c.keys(), KEYS));
            } else {
                expected.put(ItemDigests.key(c.keys(), KEYS), c.newImage());
            }
        }
        var pitJson = ItemDigests.ofTable(dynamo, "twin-json-pit", KEYS);
        assertThat(ItemDigests.ofTable(dynamo, "twin-ion-pit", KEYS)).isEqualTo(pitJson);
        assertThat(pitJson).isEqualTo(ItemDigests.of(expected.values(), KEYS));
    }

    @Test
    void anIonBackupExportsToTheCsvItsJsonTwinExportsTo() throws Exception {
        var csv = new ArrayList<String>();
        for (String format : List.of("DYNAMODB_JSON", "ION")) {
            String table = table(format) + "-csv";
            String root = "s3://" + SharedStack.EXPORT_BUCKET + "/twins/" + table(format) + "/AWSDynamoDB/";
            String description = SdkJson.toJson(HistoryFixtures.description(table, RandomItems.Shape.simple()))
                    .toString();
            // the same export registered under a second name is refused (another table's), so each twin is
            // written again for its CSV table
            NativeExportFixture.write(
                    stack.s3.client(),
                    SharedStack.EXPORT_BUCKET,
                    "twins/" + table,
                    full(format),
                    "arn:aws:dynamodb:us-east-1:000000000000:table/" + table,
                    format,
                    null,
                    TAKEN,
                    items.stream().map(Line::item).toList(),
                    150);
            root = "s3://" + SharedStack.EXPORT_BUCKET + "/twins/" + table + "/AWSDynamoDB/";
            var registered = Http.post(
                    stack.apiUri("/tables/" + table + "/exports"),
                    "{\"s3Uri\":\"" + root + full(format) + "/\",\"tableDescription\":" + description
                            + ",\"expiresAt\":\"2099-01-01T00:00:00Z\"}");
            assertThat(registered.status()).as(registered.body()).isEqualTo(201);

            // When each is restored into a CSV file
            String id = stack.restoreAndAwaitCompletion("{\"source\":{\"table\":\"" + table + "\",\"backupId\":\""
                    + full(format) + "\"},\"destination\":{\"type\":\"FILE\",\"format\":\"CSV\","
                    + "\"delivery\":{\"type\":\"DOWNLOAD\"}}}");
            JsonNode view = Http.get(stack.apiUri("/restores/" + id)).json();
            var download = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(stack.apiUri(
                                                    view.at("/file/download").asString())
                                            .toString()))
                                    .header(LocalApi.HEADER, LocalApi.KEY)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(download.statusCode()).isEqualTo(200);
            csv.add(download.body());
        }

        // Then the two files are the same, header and rows
        assertThat(csv.get(1)).isEqualTo(csv.get(0));
        assertThat(csv.get(0).lines().count()).isEqualTo(items.size() + 1);
    }
}
