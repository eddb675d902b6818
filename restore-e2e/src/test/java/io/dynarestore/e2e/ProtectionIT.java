package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import io.dynarestore.contracts.Topic;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.StreamedTables;
import io.dynarestore.testkit.StreamsEndpoint;
import io.dynarestore.testkit.TopicRecorder;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/**
 * Protection from end to end: a table protected through the REST API by the protector (SCAN
 * backups, a Streams change log), changed, and restored through the REST API to the second before
 * the change; and a change log that fell behind its stream, whose gap the windows show and no
 * restore crosses; and a table protected by DynamoDB's own exports; and retention, which waits for
 * the restores in progress that read what expired; and restore drills, whose failure the on-call
 * address hears of.
 */
class ProtectionIT {

    private static final List<String> KEYS = List.of("pk", "sk");
    private static final String[] PROTECTOR_ARGS = {
        "--protector.capture.settle=500ms",
        "--protector.exports.poll-interval=200ms",
        "--protector.exports.check-every=1s",
        "--protector.retention.every=1s",
        "--protector.retention.grace=0s"
    };
    private static RestoreStack stack;
    private static StreamsEndpoint endpoint;
    private static DynamoDbClient dynamo;
    private static ConfigurableApplicationContext protector;
    /** Where the notifier sends drill alerts. */
    private static final String ON_CALL = "dba-oncall@example.com";

    private static GreenMail smtp;
    private static ConfigurableApplicationContext writer;
    private static TopicRecorder protection;

    @BeforeAll
    static void start() {
        stack = RestoreStack.infrastructure();
        endpoint = StreamsEndpoint.inFrontOf(stack.dynalite.endpoint()).exportsTo(stack.s3.client());
        stack.throughStreamsEndpoint(endpoint);
        // unidentified publishers may only read: a drill's request restores only when the protector signs it
        stack.startPlanner("--planner.access.unidentified=read");
        writer = stack.startWriter();
        stack.startApi();
        protector = stack.startProtector(PROTECTOR_ARGS);
        dynamo = io.dynarestore.testkit.Dynalite.client(endpoint.endpoint());
        protection = TopicRecorder.follow(stack.kafka.bootstrapServers(), Topic.PROTECTION_EVENTS.topicName());
        smtp = new GreenMail(new ServerSetup(Ports.free(), "127.0.0.1", "smtp"));
        smtp.start();
        stack.startNotifier(smtp.getSmtp().getPort(), "--notifier.alerts.emails=" + ON_CALL);
    }

    @AfterAll
    static void stop() {
        protection.close();
        stack.close();
        smtp.stop();
        endpoint.close();
    }

    private static void createTable(String table) {
        StreamedTables.create(dynamo, table, RandomItems.Shape.simple());
    }

    private static void protect(String table) throws Exception {
        var put = Http.put(stack.apiUri("/tables/" + table + "/protection"), """
                {"backups": {"method": "SCAN", "every": "PT1H", "retention": "P7D"},
                 "changeLog": {"method": "STREAMS", "flushEvery": "PT2S"}}""");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> Http.get(stack.apiUri("/tables/" + table + "/backups"))
                                .json()
                                .path("backups")
                                .size()
                        > 0);
    }

    private static JsonNode windows(String table) throws Exception {
        return Http.get(stack.apiUri("/tables/" + table + "/pitr-windows")).json();
    }

    private static void awaitRestorable(String table, Instant t) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    var latest = windows(table).path("latestRestorable");
                    return !latest.isMissingNode()
                            && !latest.isNull()
                            && !Instant.parse(latest.asString()).isBefore(t);
                });
    }

    /** Waits for the next second to begin and returns the one that ended: every write before now is in it or earlier. */
    private static Instant secondJustEnded() throws InterruptedException {
        long now = System.currentTimeMillis();
        Thread.sleep(1_000 - now % 1_000 + 50);
        return Instant.ofEpochSecond(now / 1_000);
    }

    @Test
    void aProtectedTableRestoresToTheSecondBeforeABadChangeThroughTheRestApi() throws Exception {
        // Given a table protected through the REST API, with items written after its first backup
        createTable("guarded");
        var items = new RandomItems(31, new RandomItems.Shape("pk", "S", "sk", "N", Map.of()));
        for (int i = 0; i < 40; i++) {
            int n = i;
            dynamo.putItem(b -> b.tableName("guarded").item(items.item(n)));
        }
        protect("guarded");
        var policy = Http.get(stack.apiUri("/tables/guarded/protection"));
        assertThat(policy.json().path("changeLog").path("method").asString()).isEqualTo("STREAMS");
        for (int i = 40; i < 80; i++) {
            int n = i;
            dynamo.putItem(b -> b.tableName("guarded").item(items.item(n)));
        }
        dynamo.deleteItem(b -> b.tableName("guarded").key(key(items.item(3))));
        TreeMap<String, String> before = ItemDigests.ofTable(dynamo, "guarded", KEYS);
        Instant t = secondJustEnded();

        // When a bad deploy overwrites and deletes items a second later
        for (int i = 0; i < 30; i++) {
            int n = i;
            dynamo.putItem(b -> b.tableName("guarded").item(items.item(n, 9)));
        }
        for (int i = 50; i < 60; i++) {
            int n = i;
            dynamo.deleteItem(b -> b.tableName("guarded").key(key(items.item(n))));
        }
        Instant after = secondJustEnded();
        awaitRestorable("guarded", after);

        // Then a restore to the second before it, into a new table, is the table as it was then
        stack.restoreAndAwaitCompletion("""
                {"source": {"table": "guarded", "pointInTime": "%s"},
                 "destination": {"type": "NEW_TABLE", "tableName": "guarded-at-t"}}""".formatted(t));
        assertThat(ItemDigests.ofTable(dynamo, "guarded-at-t", KEYS)).isEqualTo(before);

        // and an on-demand backup is taken once and listed
        var requested = Http.post(stack.apiUri("/tables/guarded/backups"), "");
        assertThat(requested.status()).as(requested.body()).isEqualTo(202);
        String id = requested.json().path("backupId").asString();
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() ->
                        Http.get(stack.apiUri("/tables/guarded/backups")).body().contains(id));

        // and what the protector did is on restore.protection.events, with CloudEvents headers
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> protection.all().stream()
                        .anyMatch(e ->
                                "BackupCompleted".equals(e.type()) && e.raw().contains(id)));
        var flushed = protection.all().stream()
                .filter(e -> "ChangeLogFlushed".equals(e.type()) && e.raw().contains("\"guarded\""))
                .findFirst()
                .orElseThrow();
        assertThat(flushed.headers())
                .containsEntry("ce_type", "io.dynarestore.ChangeLogFlushed")
                .containsEntry("ce_subject", "000000000000/us-east-1/guarded");
    }

    @Test
    void backtracksInPlaceTheWritesMadeJustBeforeTheRequestByFlushingTheCapturesTailFirst() throws Exception {
        // Given a protected table restorable at T, whose capture then flushes only every ten minutes
        createTable("tail");
        var items = new RandomItems(32, new RandomItems.Shape("pk", "S", "sk", "N", Map.of()));
        for (int i = 0; i < 60; i++) {
            int n = i;
            dynamo.putItem(b -> b.tableName("tail").item(items.item(n)));
        }
        protect("tail");
        TreeMap<String, String> before = ItemDigests.ofTable(dynamo, "tail", KEYS);
        Instant t = secondJustEnded();
        awaitRestorable("tail", t);
        var slow = Http.put(stack.apiUri("/tables/tail/protection"), """
                {"backups": {"method": "SCAN", "every": "PT1H", "retention": "P7D"},
                 "changeLog": {"method": "STREAMS", "flushEvery": "PT10M"}}""");
        assertThat(slow.status()).as(slow.body()).isEqualTo(200);
        Thread.sleep(3_000); // the protector applies the interval: no flush comes by itself now

        // When a bad deploy overwrites and deletes items, and the table is restored in place to T at once
        for (int i = 0; i < 20; i++) {
            int n = i;
            dynamo.putItem(b -> b.tableName("tail").item(items.item(n, 9)));
        }
        for (int i = 40; i < 50; i++) {
            int n = i;
            dynamo.deleteItem(b -> b.tableName("tail").key(key(items.item(n))));
        }
        String id = stack.restoreAndAwaitCompletion("""
                {"source": {"table": "tail", "pointInTime": "%s"},
                 "destination": {"type": "IN_PLACE"}}""".formatted(t));

        // Then it backtracked every bad write: the capture flushed its tail when it saw the restore
        // accepted, and the planner waited for that flush before staging
        assertThat(ItemDigests.ofTable(dynamo, "tail", KEYS)).isEqualTo(before);
        var restore = Http.get(stack.apiUri("/restores/" + id)).json();
        assertThat(restore.path("strategyReason").asString()).startsWith("Backtrack");
        assertThat(restore.path("itemsWritten").asLong()
                        + restore.path("itemsDeleted").asLong())
                .isEqualTo(30);
    }

    @Test
    void aChangeLogThatFellBehindItsStreamShowsAGapAndARestoreIntoItIsRefusedWithTheReason() throws Exception {
        // Given a protected table whose change log is flushed
        createTable("lapsed");
        protect("lapsed");
        dynamo.putItem(b ->
                b.tableName("lapsed").item(Map.of("pk", AttributeValue.fromS("a"), "sk", AttributeValue.fromN("1"))));
        awaitRestorable("lapsed", secondJustEnded());

        // When the protector is down while writes go on and the stream trims them
        stack.stop(protector);
        dynamo.putItem(b ->
                b.tableName("lapsed").item(Map.of("pk", AttributeValue.fromS("b"), "sk", AttributeValue.fromN("1"))));
        Thread.sleep(1_500);
        endpoint.retention(Duration.ofMillis(700));
        try {
            Thread.sleep(1_000);
            protector = stack.startProtector(PROTECTOR_ARGS);

            // Then the windows show a gap once the capture started again
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> windows("lapsed").path("gaps").size() == 1
                            && windows("lapsed").path("windows").size() == 2);
            assertThat(protection.all())
                    .anyMatch(e -> "ChangeLogGapped".equals(e.type()) && e.raw().contains("trimmed"));
            String inGap = windows("lapsed").path("gaps").get(0).path("start").asString();

            // and a restore to a second in it is refused, naming the seconds that can be restored
            var refused = Http.post(stack.apiUri("/restores"), """
                    {"source": {"table": "lapsed", "pointInTime": "%s"},
                     "destination": {"type": "NEW_TABLE", "tableName": "lapsed-in-gap"}}""".formatted(inGap));
            assertThat(refused.status()).as(refused.body()).isIn(400, 422);
            assertThat(refused.body()).contains("nearest restorable seconds");
        } finally {
            endpoint.retention(Duration.ofHours(24));
        }
    }

    @Test
    void aTableProtectedByNativeExportsIsBackedUpByDynamoDbsOwnExportAndRestoresFromIt() throws Exception {
        // Given a table without point-in-time recovery
        createTable("exported");
        var items = new RandomItems(37, RandomItems.Shape.simple());
        for (int i = 0; i < 30; i++) {
            int n = i;
            dynamo.putItem(b -> b.tableName("exported").item(items.item(n)));
        }
        String nativePolicy = """
                {"backups": {"method": "NATIVE_EXPORT", "every": "PT1H", "retention": "P7D"},
                 "changeLog": {"method": "NATIVE_INCREMENTAL", "flushEvery": "PT15M"}}""";

        // Then a policy of native exports is refused with the command that turns recovery on
        var refused = Http.put(stack.apiUri("/tables/exported/protection"), nativePolicy);
        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().path("detail").asString())
                .contains("update-continuous-backups --table-name exported");

        // When recovery is on and the table is protected by native exports
        dynamo.updateContinuousBackups(
                b -> b.tableName("exported").pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
        TreeMap<String, String> before = ItemDigests.ofTable(dynamo, "exported", KEYS);
        var put = Http.put(stack.apiUri("/tables/exported/protection"), nativePolicy);
        assertThat(put.status()).as(put.body()).isEqualTo(200);

        // Then DynamoDB's export of the table is listed as a backup, and restores to the table as it was
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> Http.get(stack.apiUri("/tables/exported/backups"))
                                .json()
                                .path("backups")
                                .size()
                        > 0);
        String backupId = Http.get(stack.apiUri("/tables/exported/backups"))
                .json()
                .path("backups")
                .get(0)
                .path("backupId")
                .asString();
        assertThat(protection.all())
                .anyMatch(e -> "BackupCompleted".equals(e.type())
                        && e.raw().contains(backupId)
                        && e.raw().contains("NATIVE_EXPORT"));
        for (int i = 0; i < 10; i++) {
            int n = i;
            dynamo.deleteItem(b -> b.tableName("exported").key(key(items.item(n))));
        }
        stack.restoreAndAwaitCompletion("""
                {"source": {"table": "exported", "backupId": "%s"},
                 "destination": {"type": "NEW_TABLE", "tableName": "exported-again"}}""".formatted(backupId));
        assertThat(ItemDigests.ofTable(dynamo, "exported-again", KEYS))
                .isEqualTo(before)
                .hasSize(30);
    }

    @Test
    void anExpiredBackupThatARestoreInProgressReadsIsDeletedOnlyOnceThatRestoreEnds() throws Exception {
        // Given a table of 60 items whose backups are kept 10 seconds
        createTable("short-lived");
        var items = new RandomItems(41, RandomItems.Shape.simple());
        for (int i = 0; i < 60; i++) {
            int n = i;
            dynamo.putItem(b -> b.tableName("short-lived").item(items.item(n)));
        }
        var put = Http.put(stack.apiUri("/tables/short-lived/protection"), """
                {"backups": {"method": "SCAN", "every": "PT1H", "retention": "PT10S"},
                 "changeLog": {"method": "STREAMS", "flushEvery": "PT2S"}}""");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        var catalog = new io.dynarestore.core.vault.VaultCatalog(
                stack.s3.client(), new io.dynarestore.core.vault.VaultLayout(RestoreStack.BUCKET, ""));
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> !catalog.listBackups(RestoreStack.ACCOUNT, RestoreStack.REGION, "short-lived")
                        .isEmpty());
        var backup = catalog.listBackups(RestoreStack.ACCOUNT, RestoreStack.REGION, "short-lived")
                .get(0);

        // and a restore of its backup under way, held up while no item-writer runs
        stack.stop(writer);
        var started = Http.post(stack.apiUri("/restores"), """
                {"source": {"table": "short-lived", "backupId": "%s"},
                 "destination": {"type": "NEW_TABLE", "tableName": "short-lived-copy"}}""".formatted(backup.backupId()));
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        String restoreId = started.json().path("restoreId").asString();

        // When the backup has been expired for 4 seconds, retention looking every second with no grace
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> Instant.now().isAfter(backup.expiresAt().plusSeconds(4)));

        // Then the restore is still running, and the backup it reads is still there
        assertThat(Http.get(stack.apiUri("/restores/" + restoreId))
                        .json()
                        .path("state")
                        .asString())
                .isIn("ACCEPTED", "PLANNED", "RUNNING");
        assertThat(catalog.findBackup(RestoreStack.ACCOUNT, RestoreStack.REGION, "short-lived", backup.backupId()))
                .isPresent();

        // When an item-writer is back and the restore completes, the backup is deleted and its expiry told
        writer = stack.startWriter();
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> Http.get(stack.apiUri("/restores/" + restoreId))
                        .json()
                        .path("state")
                        .asString()
                        .equals("COMPLETED"));
        assertThat(ItemDigests.ofTable(dynamo, "short-lived-copy", KEYS)).hasSize(60);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> catalog.findBackup(
                                RestoreStack.ACCOUNT, RestoreStack.REGION, "short-lived", backup.backupId())
                        .isEmpty());
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> protection.all().stream()
                        .anyMatch(
                                e -> "BackupExpired".equals(e.type()) && e.raw().contains(backup.backupId())));
    }

    private static Map<String, AttributeValue> key(Map<String, AttributeValue> item) {
        return Map.of("pk", item.get("pk"), "sk", item.get("sk"));
    }

    @Test
    void aScheduledDrillRestoresTheLatestBackupVerifiesItDeletesItsTableAndFailsOnACorruptedBackup() throws Exception {
        // Given a table of 300 items, protected by SCAN backups and a drill every 20 seconds of at most 50 WCU
        createTable("drilled");
        var items = new RandomItems(88, RandomItems.Shape.simple());
        for (int n = 0; n < 300; n++) {
            var item = items.item(n);
            dynamo.putItem(b -> b.tableName("drilled").item(item));
        }
        // and its first backup taken before drills begin (a slot before it would fail for want of one)
        var first = Http.put(stack.apiUri("/tables/drilled/protection"), """
                {"backups": {"method": "SCAN", "every": "PT1H", "retention": "P7D"},
                 "changeLog": {"method": "NONE"}}""");
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        var vault = new io.dynarestore.core.vault.VaultCatalog(
                stack.s3.client(), new io.dynarestore.core.vault.VaultLayout(RestoreStack.BUCKET, ""));
        Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> !vault.listBackups("000000000000", "us-east-1", "drilled")
                        .isEmpty());
        var put = Http.put(stack.apiUri("/tables/drilled/protection"), """
                {"backups": {"method": "SCAN", "every": "PT1H", "retention": "P7D"},
                 "changeLog": {"method": "NONE"},
                 "drills": {"every": "PT20S", "writeUnits": 50}}""");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        assertThat(put.json().at("/drills/writeUnits").asLong()).isEqualTo(50);

        // When a drill slot begins after the first backup, its scratch table is made with the drill's budget
        String scratch = Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> stack.dynalite.client().listTables().tableNames().stream()
                                .filter(t -> t.startsWith("drilled-drill-"))
                                .findFirst()
                                .orElse(null),
                        t -> t != null);
        assertThat(stack.dynalite
                        .client()
                        .describeTable(b -> b.tableName(scratch))
                        .table()
                        .provisionedThroughput()
                        .writeCapacityUnits())
                .as("the scratch table's write capacity, which the writers keep to")
                .isEqualTo(50);
        var passed = Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> drillEvent("DrillPassed"), e -> e != null);

        // Then the drill restored that backup, wrote and verified every item, and its scratch table is gone
        JsonNode drill = passed.json();
        assertThat(drill.get("source").asString()).startsWith("backup ");
        assertThat(drill.get("items").asLong()).isEqualTo(300);
        assertThat(drill.get("scratchTable").asString()).isEqualTo(scratch);
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> stack.dynalite.client().listTables().tableNames().stream()
                        .noneMatch(t -> t.equals(drill.get("scratchTable").asString())));

        // When a data file of that backup is changed after it was taken
        String backupId = drill.get("source").asString().substring("backup ".length());
        var backup = vault.findBackup("000000000000", "us-east-1", "drilled", backupId)
                .orElseThrow();
        String file = backup.files().get(0).dataFileS3Key();
        stack.s3
                .client()
                .putObject(
                        b -> b.bucket(backup.dataBucket()).key(file),
                        software.amazon.awssdk.core.sync.RequestBody.fromBytes(new byte[] {0x1f, (byte) 0x8b, 0, 0}));

        // Then the next drill fails, saying why, and its scratch table is gone too
        var failed = Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> drillEvent("DrillFailed"), e -> e != null);
        assertThat(failed.json().get("reason").asString()).contains("restore failed");
        // and the on-call address is told, once, which table and why
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> drillAlerts().size() == 1);
        assertThat(GreenMailUtil.getBody(drillAlerts().get(0)))
                .contains("table drilled")
                .contains("restore failed")
                .contains("/restores/" + failed.json().get("restore").asString());
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> stack.dynalite.client().listTables().tableNames().stream()
                        .noneMatch(
                                t -> t.equals(failed.json().get("scratchTable").asString())));
    }

    private static List<MimeMessage> drillAlerts() throws Exception {
        var out = new ArrayList<MimeMessage>();
        for (var m : smtp.getReceivedMessages()) {
            if (m.getAllRecipients()[0].toString().equals(ON_CALL)
                    && m.getSubject().equals("Restore drill of drilled failed")) {
                out.add(m);
            }
        }
        return out;
    }

    private static TopicRecorder.Entry drillEvent(String type) {
        return protection.all().stream()
                .filter(e -> type.equals(e.type()) && e.raw().contains("\"drilled\""))
                .findFirst()
                .orElse(null);
    }
}
