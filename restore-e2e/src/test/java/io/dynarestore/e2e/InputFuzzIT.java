package io.dynarestore.e2e;

import io.dynarestore.testkit.LocalApi;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.contracts.Topic;
import io.dynarestore.testkit.RandomItems;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every input surface of the running system under seeded garbage: REST bodies, paths and query
 * parameters of every endpoint, and raw messages on restore.requests and restore.commands. Each
 * REST answer is below 500; each bad request on Kafka goes to the DLT or becomes a RestoreRejected;
 * and afterwards the services are healthy and a real restore still completes (no hung consumer).
 */
class InputFuzzIT {

    static final int REST_CASES = 1_200;
    static final int KAFKA_CASES = 1_000;
    static RestoreStack stack;
    static StatusLog status;
    static StatusLog requestDeadLetters;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static final String[] PATHS = {"/restores/%s", "/restores/%s/events", "/restores/%s/download",
            "/tables/%s/backups", "/tables/%s/pitr-windows", "/tables/%s/calendar?month=%s", "/tables/%s/exports",
            "/links/%s", "/restores?table=%s&state=%s&limit=%s&cursor=%s&since=%s", "/tables?account=%s&region=%s",
            "/accounts", "/%s"};
    static final String[] ODD = {"..", "../../etc/passwd", "%2e%2e%2f", "orders", "a b", "ñ", "%00", "x".repeat(300),
            "RUNNING", "-1", "0", "99999999999", "2026-13", "2026-11", "'; DROP TABLE x; --", "<script>", "%", "%zz",
            "latest", "\u202e", "$", "{}", "null"};

    @BeforeAll
    static void startStack() throws Exception {
        stack = RestoreStack.start();
        status = StatusLog.status(stack);
        requestDeadLetters = new StatusLog(stack.kafka.bootstrapServers(), Topic.REQUESTS.dlt());
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders");
        BackupFixtures.writeItems(stack, source, "b-fuzz", new RandomItems(31, BackupFixtures.SHAPE).items(400), 200,
                List.of(), null, null);
    }

    @AfterAll
    static void stopStack() {
        requestDeadLetters.close();
        status.close();
        stack.close();
    }

    @Test
    void answersEveryGarbledRestCallBelow500() throws Exception {
        var random = new Random(2026);
        var statuses = new TreeMap<Integer, Integer>();
        var failures = new ArrayList<String>();
        for (int i = 0; i < REST_CASES; i++) {
            HttpRequest request = i % 3 == 0 ? garbledGet(random) : garbledPost(random, i);
            HttpResponse<Void> response;
            try {
                response = HTTP.send(request, HttpResponse.BodyHandlers.discarding());
            } catch (java.io.IOException e) {
                failures.add(request.method() + " " + request.uri() + ": " + e);
                continue;
            }
            statuses.merge(response.statusCode(), 1, Integer::sum);
            if (response.statusCode() >= 500) {
                failures.add(request.method() + " " + request.uri() + " -> " + response.statusCode());
            }
        }
        System.out.println("REST fuzz: " + REST_CASES + " cases, answers by status " + statuses);
        assertThat(failures).isEmpty();
        assertHealthyAndRestoring("after-rest");
    }

    @Test
    void refusesAHugeBodyWith413WithoutReadingIt() throws Exception {
        // Given 5 MB bodies, declared and streamed without a length
        byte[] huge = new byte[5 << 20];
        java.util.Arrays.fill(huge, (byte) '{');
        for (var publisher : List.of(HttpRequest.BodyPublishers.ofByteArray(huge),
                HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(huge)))) {
            var response = HTTP.send(HttpRequest.newBuilder(stack.apiUri("/restores"))
                .header(LocalApi.HEADER, LocalApi.KEY)
                    .header("Content-Type", "application/json").POST(publisher).build(),
                    HttpResponse.BodyHandlers.ofString());

            // Then each is refused as too large, with problem details
            assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
            assertThat(response.body()).contains("REQUEST_TOO_LARGE");
        }
    }

    @Test
    void sendsGarbledKafkaMessagesToTheDeadLetterTopicOrRejectsThemAndKeepsConsuming() throws Exception {
        var random = new Random(4242);
        int rejectable = 0;
        try (var producer = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.kafka.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < KAFKA_CASES; i++) {
                boolean command = i % 4 == 0;
                String topic = command ? Topic.COMMANDS.topicName() : Topic.REQUESTS.topicName();
                String id = "fuzz-" + i;
                byte[] value;
                if (i % 5 == 1) {
                    value = new byte[random.nextInt(200)];
                    random.nextBytes(value);
                } else if (command) {
                    value = ("{\"type\": \"CancelRequested\", \"restoreId\": " + ODD[random.nextInt(ODD.length)].length()
                            + ", \"eventId\": []}").getBytes(StandardCharsets.UTF_8);
                } else {
                    // a request with a usable restore id and a broken rest: it must come back as RestoreRejected
                    value = ("{\"restoreId\": \"" + id + "\", \"source\": {\"table\": \"" + ODD[random.nextInt(ODD.length)]
                            .replace("\"", "") + "\", \"backupId\": " + random.nextInt() + "}}").getBytes(StandardCharsets.UTF_8);
                    rejectable++;
                }
                producer.send(new ProducerRecord<>(topic, random.nextInt(3) == 0 ? null : id, value));
            }
            producer.flush();
        }
        int expectedRejections = rejectable;
        // Then every broken request with a usable id is rejected with a reason, the rest are dead letters
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            long rejected = status.all().stream().filter(e -> "RestoreRejected".equals(e.type())
                    && e.restoreId() != null && e.restoreId().startsWith("fuzz-")).count();
            assertThat(rejected).isGreaterThanOrEqualTo(expectedRejections);
        });
        assertThat(status.all().stream().filter(e -> "RestoreRejected".equals(e.type())
                && e.restoreId() != null && e.restoreId().startsWith("fuzz-")))
                .allSatisfy(e -> assertThat(e.json().get("reason").asString()).isNotBlank());
        await().atMost(Duration.ofMinutes(1)).until(() -> !requestDeadLetters.all().isEmpty());
        System.out.println("Kafka fuzz: " + KAFKA_CASES + " messages, " + expectedRejections + " rejected with a reason, "
                + requestDeadLetters.all().size() + " on " + Topic.REQUESTS.dlt());
        assertHealthyAndRestoring("after-kafka");
    }

    /** Every service answers its probes, and a real restore still completes. */
    static void assertHealthyAndRestoring(String id) throws Exception {
        assertThat(Http.get(stack.apiUri("/actuator/health")).body()).contains("UP");
        String restoreId = stack.restoreAndAwaitCompletion("""
                {"restoreId": "%s", "source": {"table": "orders", "backupId": "b-fuzz"},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-%s"}}""".formatted(id, id));
        assertThat(restoreId).isEqualTo(id);
    }

    static HttpRequest garbledGet(Random random) {
        String template = PATHS[random.nextInt(PATHS.length)];
        Object[] args = new Object[5];
        for (int i = 0; i < args.length; i++) {
            String odd = ODD[random.nextInt(ODD.length)];
            args[i] = random.nextBoolean() ? URLEncoder.encode(odd, StandardCharsets.UTF_8) : odd.replace(" ", "%20")
                    .replace("\u202e", "%E2%80%AE").replace("ñ", "%C3%B1").replace("<", "%3C").replace("'", "%27")
                    .replace("{", "%7B").replace("}", "%7D").replace("$", "%24").replace("%zz", "%25zz")
                    .replace("%00", "%2500").replace("%2e%2e%2f", "%252e%252e%252f").replaceAll("^%$", "%25");
        }
        String path = String.format(template, args);
        URI uri;
        try {
            uri = stack.apiUri(path);
        } catch (IllegalArgumentException e) {
            uri = stack.apiUri("/restores/" + URLEncoder.encode(path, StandardCharsets.UTF_8));
        }
        return HttpRequest.newBuilder(uri)
                .header(LocalApi.HEADER, LocalApi.KEY).timeout(Duration.ofSeconds(10)).GET().build();
    }

    static HttpRequest garbledPost(Random random, int seed) {
        String[] bodies = {
            """
            {"source": {"table": "orders", "backupId": "b-fuzz"}, "destination": {"type": "NEW_TABLE", "tableName": "fz"}}""",
            """
            {"source": {"table": "orders", "backupId": "b-fuzz"},
             "scope": {"type": "RECORDS", "keyFilters": [{"partitionKey": {"condition": "BeginsWith", "values": ["p1"]}}]},
             "limit": 5}""",
            """
            {"requestedBy": "x", "reason": "y"}"""};
        String[] paths = {"/restores", "/restores/preview", "/restores/fuzz-" + seed + "/cancel", "/tables/orders/exports",
                "/links/abc"};
        int which = random.nextInt(paths.length);
        String body = new io.dynarestore.testkit.Mutations(seed).json(bodies[which % bodies.length]);
        String contentType = which == 4 ? "application/x-www-form-urlencoded"
                : random.nextInt(10) == 0 ? "text/plain" : "application/json";
        return HttpRequest.newBuilder(stack.apiUri(paths[which]))
                .header(LocalApi.HEADER, LocalApi.KEY).timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
