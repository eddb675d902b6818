package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.core.KeySchemas;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import tools.jackson.databind.JsonNode;

/**
 * Requests from upstream systems on Kafka (raw JSON from a plain producer, no project classes)
 * and from REST clients: carried out, rejected with reasons, dead-lettered, deduplicated.
 */
class RequestsIT {

    static final int ITEMS = 1_200;
    static RestoreStack stack;
    static TopicRecorder status;
    static TopicRecorder deadLetters;
    static KafkaProducer<byte[], byte[]> producer;
    static RandomItems items = new RandomItems(99, BackupFixtures.SHAPE);

    @BeforeAll
    static void startStack() throws Exception {
        stack = SharedStack.get();
        status = stack.followStatus();
        deadLetters = TopicRecorder.follow(stack.kafka.bootstrapServers(), "restore.requests.DLT");
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders");
        BackupFixtures.writeBackup(
                stack, source, "b-live", items, ITEMS, 300, -1, Instant.now().plus(Duration.ofDays(7)));
        BackupFixtures.writeBackup(
                stack, source, "b-expired", items, 10, 300, -1, Instant.now().minusSeconds(60));
        stack.dynalite
                .client()
                .createTable(b -> b.tableName("taken")
                        .attributeDefinitions(KeySchemas.attr(
                                "id", software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S))
                        .keySchema(KeySchemas.key("id", KeyType.HASH))
                        .provisionedThroughput(BackupFixtures.throughput(1, 1)));
        var config = new HashMap<String, Object>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        producer = new KafkaProducer<>(config);
    }

    @AfterAll
    static void stopStack() {
        producer.close();
        deadLetters.close();
        status.close();
    }

    static void publish(String key, String json) throws Exception {
        publish(null, key, json);
    }

    static void publish(Integer partition, String key, String json) throws Exception {
        producer.send(new ProducerRecord<>(
                        "restore.requests",
                        partition,
                        key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                        json.getBytes(StandardCharsets.UTF_8)))
                .get();
    }

    static JsonNode awaitEvent(String restoreId, String type) {
        try {
            return await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> status.last(restoreId, type), e -> e != null);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    "no " + type + " for " + restoreId + "; its events: "
                            + status.of(restoreId).stream().map(x -> x.raw()).toList(),
                    e);
        }
    }

    @Test
    void carriesOutARequestPublishedAsRawJsonByAPlainKafkaProducer() throws Exception {
        // Given a request written by hand, as any Kafka client in any language would send it,
        // published on a partition that does not own its restore id
        String json = """
                {"restoreId": "raw-1", "source": {"table": "orders", "backupId": "b-live"},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-from-kafka"}}""";
        int owner = io.dynarestore.core.kafka.Partitions.of("raw-1", 6);
        publish((owner + 1) % 6, "not-the-restore-id", json);

        // When the restore ends
        JsonNode completed = awaitEvent("raw-1", "RestoreCompleted");

        // Then every item is in the new table, and the status events tell the story in order
        assertThat(completed.get("itemsWritten").asLong()).isEqualTo(ITEMS);
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), "orders-from-kafka", BackupFixtures.KEYS))
                .isEqualTo(ItemDigests.of(items.items(ITEMS), BackupFixtures.KEYS));
        List<String> lifecycle = status.typesOf("raw-1").stream()
                .filter(t -> !t.startsWith("Segment") && !t.endsWith("Progressed"))
                .toList(); // progress comes as it may
        assertThat(lifecycle)
                .containsExactly("RestoreAccepted", "RestorePlanned", "DestinationReady", "RestoreCompleted");
        // and every event carries CloudEvents headers that a non-Java consumer can route on
        assertThat(status.of("raw-1")).allSatisfy(e -> {
            assertThat(e.headers())
                    .containsEntry("ce_specversion", "1.0")
                    .containsEntry("ce_subject", "raw-1")
                    .containsEntry("ce_type", "io.dynarestore." + e.type())
                    .containsKey("ce_id");
            assertThat(e.key()).isEqualTo("raw-1");
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not JSON         | {\"source\": {\"table\": \"orders\",                                                                                  | INVALID_JSON     | not valid JSON",
                "missing fields   | {\"restoreId\": \"bad-missing\", \"source\": {\"table\": \"orders\"}}                                                   | INVALID_REQUEST  | /destination",
                "unknown backup   | {\"restoreId\": \"bad-unknown\", \"source\": {\"table\": \"orders\", \"backupId\": \"nope\"}, \"destination\": {\"type\": \"NEW_TABLE\"}} | BACKUP_NOT_FOUND | no backup nope",
                "expired backup   | {\"restoreId\": \"bad-expired\", \"source\": {\"table\": \"orders\", \"backupId\": \"b-expired\"}, \"destination\": {\"type\": \"NEW_TABLE\"}} | BACKUP_EXPIRED | expired at",
                "existing table   | {\"restoreId\": \"bad-taken\", \"source\": {\"table\": \"orders\", \"backupId\": \"b-live\"}, \"destination\": {\"type\": \"NEW_TABLE\", \"tableName\": \"taken\"}} | TABLE_EXISTS | already exists",
            })
    void rejectsABadRequestWithItsReasonAndSetsTheMessageAsideInTheDeadLetterTopic(
            String name, String json, String code, String reason) throws Exception {
        // When a bad request is published
        publish(null, json);

        // Then the original message lands in restore.requests.DLT, unchanged, with the reason
        TopicRecorder.Entry dead = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> deadLetters.all().stream()
                                .filter(e -> json.equals(e.raw()))
                                .findFirst()
                                .orElse(null),
                        e -> e != null);
        assertThat(dead.headers())
                .containsEntry("dynarestore_reason-code", code)
                .containsEntry("kafka_dlt-original-topic", "restore.requests");
        String restoreId = dead.headers().get("dynarestore_restore-id");
        assertThat(restoreId).isNotBlank();

        // and a RestoreRejected event with the reason is on restore.status under that restore id
        JsonNode rejected = awaitEvent(restoreId, "RestoreRejected");
        assertThat(rejected.get("code").asString()).isEqualTo(code);
        assertThat(rejected.get("reason").asString()).containsIgnoringCase(reason);

        // and the services keep serving: a good request still completes
        String good = "ok-after-" + code.toLowerCase();
        publish(
                good,
                "{\"restoreId\": \"" + good + "\", \"source\": {\"table\": \"orders\", \"backupId\": "
                        + "\"b-live\"}, \"destination\": {\"type\": \"NEW_TABLE\", \"tableName\": \"" + good + "\"}}");
        assertThat(awaitEvent(good, "RestoreCompleted").get("itemsWritten").asLong())
                .isEqualTo(ITEMS);
    }

    @Test
    void startsOneRestoreForARequestPublishedTwiceUnderTheSameRestoreId() throws Exception {
        // Given an upstream system that retries: the same request twice
        String json = """
                {"restoreId": "twice-1", "source": {"table": "orders", "backupId": "b-live"},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-twice"}}""";
        publish("twice-1", json);
        publish("twice-1", json);

        // When the restore completes
        awaitEvent("twice-1", "RestoreCompleted");
        Thread.sleep(1_000);

        // Then it was accepted, planned and completed once
        List<String> types = status.typesOf("twice-1");
        assertThat(types.stream().filter("RestoreAccepted"::equals)).hasSize(1);
        assertThat(types.stream().filter("RestorePlanned"::equals)).hasSize(1);
        assertThat(types.stream().filter("RestoreCompleted"::equals)).hasSize(1);

        // and a POST with the same restore id answers with the existing restore
        var again = Http.post(stack.apiUri("/restores"), json);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("state").asString()).isEqualTo("COMPLETED");
        assertThat(again.header("Location")).isEqualTo("/restores/twice-1");

        // while a different request under that id is refused
        var other = Http.post(stack.apiUri("/restores"), json.replace("orders-twice", "orders-other"));
        assertThat(other.status()).isEqualTo(409);
        assertThat(other.json().get("code").asString()).isEqualTo("RESTORE_ID_TAKEN");
    }

    @Test
    void startsOneRestoreForAPostRepeatedWithTheSameRestoreId() throws Exception {
        String json = """
                {"restoreId": "post-twice", "source": {"table": "orders", "backupId": "b-live"},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-post-twice"}}""";
        var first = Http.post(stack.apiUri("/restores"), json);
        var second = Http.post(stack.apiUri("/restores"), json);
        assertThat(first.status()).as(first.body()).isEqualTo(202);
        assertThat(second.status()).as(second.body()).isEqualTo(200);
        assertThat(second.json().get("restoreId").asString()).isEqualTo("post-twice");
        awaitEvent("post-twice", "RestoreCompleted");
        assertThat(status.typesOf("post-twice").stream().filter("RestoreAccepted"::equals))
                .hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not JSON       | {\"source\":                                                                                   | 400 | INVALID_JSON     | ",
                "no destination | {\"source\": {\"table\": \"orders\", \"backupId\": \"b-live\"}}                                   | 400 | INVALID_REQUEST  | /destination",
                "unknown backup | {\"source\": {\"table\": \"orders\", \"backupId\": \"nope\"}, \"destination\": {\"type\": \"NEW_TABLE\"}} | 422 | BACKUP_NOT_FOUND | /source/backupId",
                "expired backup | {\"source\": {\"table\": \"orders\", \"backupId\": \"b-expired\"}, \"destination\": {\"type\": \"NEW_TABLE\"}} | 422 | BACKUP_EXPIRED | /source/backupId",
                "existing table | {\"source\": {\"table\": \"orders\", \"backupId\": \"b-live\"}, \"destination\": {\"type\": \"NEW_TABLE\", \"tableName\": \"taken\"}} | 409 | TABLE_EXISTS | /destination/tableName",
                "not supported  | {\"source\": {\"table\": \"orders\", \"snapId\": \"s-1\"}, \"destination\": {\"type\": \"NEW_TABLE\"}} | 422 | UNSUPPORTED | /source/snapId",
                "unknown account| {\"source\": {\"account\": \"111111111111\", \"table\": \"orders\", \"backupId\": \"b-live\"}, \"destination\": {\"type\": \"NEW_TABLE\"}} | 422 | UNKNOWN_ACCOUNT | /source",
                "capacity cap   | {\"source\": {\"table\": \"orders\", \"backupId\": \"b-live\"}, \"destination\": {\"type\": \"NEW_TABLE\", \"options\": {\"billing\": {\"mode\": \"PROVISIONED\", \"readCapacityUnits\": 5, \"writeCapacityUnits\": 1000000}}}} | 400 | INVALID_REQUEST | /destination/options/billing/writeCapacityUnits",
                "webhook inside | {\"source\": {\"table\": \"orders\", \"backupId\": \"b-live\"}, \"destination\": {\"type\": \"NEW_TABLE\"}, \"notify\": {\"webhooks\": [\"http://10.0.0.5/hook\"]}} | 400 | INVALID_REQUEST | /notify/webhooks/0",
                "webhook creds  | {\"source\": {\"table\": \"orders\", \"backupId\": \"b-live\"}, \"destination\": {\"type\": \"NEW_TABLE\"}, \"notify\": {\"webhooks\": [\"https://u:p@hooks.example.com/\"]}} | 400 | INVALID_REQUEST | /notify/webhooks/0",
                "bad email      | {\"source\": {\"table\": \"orders\", \"backupId\": \"b-live\"}, \"destination\": {\"type\": \"NEW_TABLE\"}, \"notify\": {\"emails\": [\"ops@\"]}} | 400 | INVALID_REQUEST | /notify/emails/0",
                "bad time       | {\"source\": {\"table\": \"orders\", \"pointInTime\": \"2026-02-30T25:00:00Z\"}, \"destination\": {\"type\": \"NEW_TABLE\"}} | 400 | INVALID_REQUEST | /source/pointInTime",
            })
    void answersABadRestRequestWithProblemDetailsNamingTheFix(
            String name, String body, int httpStatus, String code, String field) throws Exception {
        var response = Http.post(stack.apiUri("/restores"), body);
        assertThat(response.status()).as(response.body()).isEqualTo(httpStatus);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("status").asInt()).isEqualTo(httpStatus);
        assertThat(problem.get("code").asString()).isEqualTo(code);
        assertThat(problem.get("type").asString()).startsWith("https://dynarestore.io/problems/");
        assertThat(problem.get("detail").asString()).isNotBlank();
        if (field != null) {
            assertThat(problem.get("errors").findValuesAsString("field")).contains(field);
        }
    }

    @Test
    void answersAnUnknownRestoreWith404ProblemDetails() throws Exception {
        var response = Http.get(stack.apiUri("/restores/no-such-restore"));
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(response.json().get("code").asString()).isEqualTo("RESTORE_NOT_FOUND");
    }

    @Test
    void listsATablesBackupsWithTheirExpiry() throws Exception {
        var response = Http.get(stack.apiUri("/tables/orders/backups"));
        assertThat(response.status()).isEqualTo(200);
        JsonNode backups = response.json().get("backups");
        Map<String, JsonNode> byId = new HashMap<>();
        backups.forEach(b -> byId.put(b.get("backupId").asString(), b));
        assertThat(byId).containsKeys("b-live", "b-expired");
        assertThat(byId.get("b-live").get("itemCount").asLong()).isEqualTo(ITEMS);
        assertThat(byId.get("b-live").get("expired").asBoolean()).isFalse();
        assertThat(byId.get("b-expired").get("expired").asBoolean()).isTrue();
    }

    @Test
    void aServiceStartedAfterAnotherBrokerInThisJvmReachesTheBrokerItsArgumentsName() {
        // Given another broker started and closed in this JVM after the shared stack's (as a class with its
        // own stack does before a class on the shared stack runs in the same test JVM)
        try (var other = KafkaBroker.start(Map.of("elsewhere", 1))) {
            assertThat(other.bootstrapServers()).isNotEqualTo(stack.kafka.bootstrapServers());
        }

        // When a restore-api replica starts on the shared stack
        var replica = stack.startApiReplica();
        try {
            // Then it is configured with the shared stack's broker, not the one started last
            assertThat(System.getProperty("spring.kafka.bootstrap-servers")).isNull();
            assertThat(replica.getEnvironment().getProperty("spring.kafka.bootstrap-servers"))
                    .isEqualTo(stack.kafka.bootstrapServers());
        } finally {
            stack.stop(replica);
        }
    }
}
