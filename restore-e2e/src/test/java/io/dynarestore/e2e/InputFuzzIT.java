package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.io.IOException;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
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
 * parameters of every endpoint, raw messages on restore.requests and restore.commands, and the
 * hostile fields of {@link io.dynarestore.testkit.HostileFields} (URLs, addresses, times, restore
 * ids, table descriptions in every shape AWS tools print) on REST, on Kafka and as far as the
 * notifier. Each REST answer is below 500; each bad request on Kafka goes to the DLT or becomes a
 * RestoreRejected; and afterwards every consumer thread of every service runs, every liveness is
 * UP, and a real restore still completes and mails its end.
 */
class InputFuzzIT {

    static final int REST_CASES = 1_200;
    static final int KAFKA_CASES = 1_000;
    static final int HOSTILE_CASES = 900;
    static final int NOTIFIER_CASES = 60;
    static RestoreStack stack;
    static com.icegreen.greenmail.util.GreenMail smtp;
    static final List<org.springframework.context.ConfigurableApplicationContext> services = new ArrayList<>();
    static TopicRecorder status;
    static TopicRecorder requestDeadLetters;
    static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static final String[] PATHS = {
        "/restores/%s",
        "/restores/%s/events",
        "/restores/%s/download",
        "/tables/%s/backups",
        "/tables/%s/pitr-windows",
        "/tables/%s/calendar?month=%s",
        "/tables/%s/exports",
        "/links/%s",
        "/restores?table=%s&state=%s&limit=%s&cursor=%s&since=%s",
        "/tables?account=%s&region=%s",
        "/accounts",
        "/%s"
    };
    static final String[] ODD = {
        "..",
        "../../etc/passwd",
        "%2e%2e%2f",
        "orders",
        "a b",
        "ñ",
        "%00",
        "x".repeat(300),
        "RUNNING",
        "-1",
        "0",
        "99999999999",
        "2026-13",
        "2026-11",
        "'; DROP TABLE x; --",
        "<script>",
        "%",
        "%zz",
        "latest",
        "\u202e",
        "$",
        "{}",
        "null"
    };

    @BeforeAll
    static void startStack() throws Exception {
        smtp = new com.icegreen.greenmail.util.GreenMail(
                new com.icegreen.greenmail.util.ServerSetup(io.dynarestore.testkit.Ports.free(), "127.0.0.1", "smtp"));
        smtp.start();
        stack = RestoreStack.infrastructure();
        services.add(stack.startPlanner());
        services.add(stack.startWriter());
        services.add(stack.startApi(
                "--api.exports.allowed-locations=exports",
                "--api.limits.submissions-per-minute=100000",
                "--api.limits.submission-burst=100000"));
        services.add(stack.startNotifier(
                smtp.getSmtp().getPort(),
                "--notifier.retries.max-attempts=2",
                "--notifier.retries.initial-backoff=100ms",
                "--notifier.webhooks.timeout=1s"));
        status = stack.followStatus();
        requestDeadLetters = TopicRecorder.follow(stack.kafka.bootstrapServers(), Topic.REQUESTS.dlt());
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders");
        BackupFixtures.writeItems(
                stack,
                source,
                "b-fuzz",
                new RandomItems(31, BackupFixtures.SHAPE).items(400),
                200,
                List.of(),
                null,
                null);
    }

    @AfterAll
    static void stopStack() {
        requestDeadLetters.close();
        status.close();
        stack.close();
        smtp.stop();
    }

    @Test
    void answersEveryGarbledRestCallBelow500() throws Exception {
        // Given the garbled calls, drawn in order from one seed
        var random = new Random(2026);
        var requests = new ArrayList<HttpRequest>(REST_CASES);
        for (int i = 0; i < REST_CASES; i++) {
            requests.add(i % 3 == 0 ? garbledGet(random) : garbledPost(random, i));
        }

        // When they are sent, 8 at a time (as several callers would)
        var statuses = new ConcurrentSkipListMap<Integer, Integer>();
        var failures = new ConcurrentLinkedQueue<String>();
        var inFlight = new Semaphore(8);
        var answered = new ArrayList<CompletableFuture<?>>();
        for (HttpRequest request : requests) {
            inFlight.acquire();
            answered.add(HTTP.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .whenComplete((response, error) -> {
                        inFlight.release();
                        if (error != null) {
                            failures.add(request.method() + " " + request.uri() + ": " + error);
                            return;
                        }
                        statuses.merge(response.statusCode(), 1, Integer::sum);
                        if (response.statusCode() >= 500) {
                            failures.add(request.method() + " " + request.uri() + " -> " + response.statusCode());
                        }
                    })
                    .exceptionally(error -> null));
        }
        CompletableFuture.allOf(answered.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);

        // Then none is answered with a 5xx, and the services still restore
        System.out.println("REST fuzz: " + REST_CASES + " cases, answers by status " + statuses);
        assertThat(failures).isEmpty();
        assertThat(statuses.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(REST_CASES);
        assertHealthyAndRestoring("after-rest");
    }

    @Test
    void refusesAHugeBodyWith413WithoutReadingIt() throws Exception {
        // Given 5 MB bodies, declared and streamed without a length
        byte[] huge = new byte[5 << 20];
        java.util.Arrays.fill(huge, (byte) '{');
        for (var publisher : List.of(
                HttpRequest.BodyPublishers.ofByteArray(huge),
                HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(huge)))) {
            var request = HttpRequest.newBuilder(stack.apiUri("/restores"))
                    .header(LocalApi.HEADER, LocalApi.KEY)
                    .header("Content-Type", "application/json")
                    .POST(publisher)
                    .build();
            // the server answers and closes while the client still writes the body; the client's kernel then
            // may drop the answer with the reset (seen once on a loaded run), so a reset is tried again, twice
            var retries = new Backoff(3, Duration.ofMillis(100), Duration.ofSeconds(1));
            HttpResponse<String> response = null;
            for (int attempt = 1; response == null; attempt++) {
                try {
                    response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                } catch (IOException reset) {
                    if (!retries.allowsAfter(attempt) || !retries.pause(attempt)) {
                        throw reset;
                    }
                    System.out.println("413 answer lost to a reset, attempt " + attempt + ": " + reset);
                }
            }

            // Then each is refused as too large, with problem details
            assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
            assertThat(response.body()).contains("REQUEST_TOO_LARGE");
        }
    }

    @Test
    void sendsGarbledKafkaMessagesToTheDeadLetterTopicOrRejectsThemAndKeepsConsuming() throws Exception {
        var random = new Random(4242);
        int rejectable = 0;
        try (var producer = new KafkaProducer<>(
                Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < KAFKA_CASES; i++) {
                boolean command = i % 4 == 0;
                String topic = command ? Topic.COMMANDS.topicName() : Topic.REQUESTS.topicName();
                String id = "fuzz-" + i;
                byte[] value;
                if (i % 5 == 1) {
                    value = new byte[random.nextInt(200)];
                    random.nextBytes(value);
                } else if (command) {
                    value = ("{\"type\": \"CancelRequested\", \"restoreId\": "
                                    + ODD[random.nextInt(ODD.length)].length() + ", \"eventId\": []}")
                            .getBytes(StandardCharsets.UTF_8);
                } else {
                    // a request with a usable restore id and a broken rest: it must come back as RestoreRejected
                    value = ("{\"restoreId\": \"" + id + "\", \"source\": {\"table\": \""
                                    + ODD[random.nextInt(ODD.length)].replace("\"", "") + "\", \"backupId\": "
                                    + random.nextInt() + "}}")
                            .getBytes(StandardCharsets.UTF_8);
                    rejectable++;
                }
                producer.send(new ProducerRecord<>(topic, random.nextInt(3) == 0 ? null : id, value));
            }
            producer.flush();
        }
        int expectedRejections = rejectable;
        // Then every broken request with a usable id is rejected with a reason, the rest are dead letters
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    long rejected = status.all().stream()
                            .filter(e -> "RestoreRejected".equals(e.type())
                                    && e.restoreId() != null
                                    && e.restoreId().startsWith("fuzz-"))
                            .count();
                    assertThat(rejected).isGreaterThanOrEqualTo(expectedRejections);
                });
        assertThat(status.all().stream()
                        .filter(e -> "RestoreRejected".equals(e.type())
                                && e.restoreId() != null
                                && e.restoreId().startsWith("fuzz-")))
                .allSatisfy(e -> assertThat(e.json().get("reason").asString()).isNotBlank());
        await().atMost(Duration.ofMinutes(1))
                .until(() -> !requestDeadLetters.all().isEmpty());
        System.out.println("Kafka fuzz: " + KAFKA_CASES + " messages, " + expectedRejections
                + " rejected with a reason, " + requestDeadLetters.all().size() + " on " + Topic.REQUESTS.dlt());
        assertHealthyAndRestoring("after-kafka");
    }

    @Test
    void takesHostileUrlsAddressesTimesIdsAndDescriptionsWithNo5xxAndStopsNoConsumer() throws Exception {
        var hostile = new io.dynarestore.testkit.HostileFields(1818);
        var statuses = new TreeMap<Integer, Integer>();
        var failures = new ArrayList<String>();
        try (var producer = new KafkaProducer<>(
                Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < HOSTILE_CASES; i++) {
                String url = q(hostile.url());
                String email = q(hostile.email());
                String time = q(hostile.time());
                String id = hostile.restoreId();
                String request = "{\"restoreId\": " + q(id) + ", \"requestedBy\": " + q(hostile.restoreId())
                        + ", \"source\": {\"table\": \"orders\", "
                        + (i % 2 == 0 ? "\"backupId\": \"b-fuzz\"" : "\"pointInTime\": " + time)
                        + "}, \"destination\": {\"type\": \"NEW_TABLE\", \"tableName\": "
                        + "\"hostile-" + i + "\"}, \"notify\": {\"webhooks\": [" + url + "], \"emails\": [" + email
                        + "]}}";
                HttpRequest call = switch (i % 6) {
                    case 0 -> post("/restores", request);
                    case 1 ->
                        post(
                                "/restores/preview",
                                "{\"source\": {\"table\": \"orders\", \"pointInTime\": " + time + "}, \"limit\": 3}");
                    case 2 ->
                        post(
                                "/tables/orders/exports",
                                "{\"s3Uri\": \"s3://exports/x/AWSDynamoDB/e-" + i + "/\", \"tableDescription\": "
                                        + hostile.tableDescription() + "}");
                    case 3 ->
                        get("/restores?since=" + enc(hostile.time()) + "&until=" + enc(hostile.time()) + "&table="
                                + enc(id));
                    case 4 ->
                        post(
                                "/restores/" + enc(id) + "/cancel",
                                "{\"requestedBy\": " + q(hostile.restoreId()) + ", \"reason\": " + time + "}");
                    default ->
                        get("/tables/orders/pitr-windows?from=" + enc(hostile.time()) + "&to=" + enc(hostile.time()));
                };
                try {
                    int code = HTTP.send(call, HttpResponse.BodyHandlers.discarding())
                            .statusCode();
                    statuses.merge(code, 1, Integer::sum);
                    if (code >= 500) {
                        failures.add(call.method() + " " + call.uri() + " -> " + code);
                    }
                } catch (java.io.IOException e) {
                    failures.add(call.method() + " " + call.uri() + ": " + e);
                }
                // the same hostile request straight to Kafka, with a header id and a principal it cannot prove
                var record = new ProducerRecord<String, String>(
                        i % 5 == 0 ? Topic.COMMANDS.topicName() : Topic.REQUESTS.topicName(),
                        id.isEmpty() ? null : id,
                        i % 5 == 0
                                ? "{\"type\": " + "\"CancelRequested\", \"restoreId\": " + q(id) + ", \"reason\": "
                                        + time + "}"
                                : request);
                record.headers().add("dynarestore_restore-id", id.getBytes(StandardCharsets.UTF_8));
                record.headers()
                        .add(
                                io.dynarestore.contracts.access.Access.PRINCIPAL_HEADER,
                                hostile.restoreId().getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
            producer.flush();
        }
        // and as far as the notifier: targets no intake would take, for restores that end
        try (var publisher = new io.dynarestore.core.kafka.EventPublisher(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers()), "fuzz")) {
            for (int i = 0; i < NOTIFIER_CASES; i++) {
                String id = "hostile-notice-" + i;
                var targets = new io.dynarestore.contracts.notifications.NotificationsRequested(
                        "e-" + i,
                        id,
                        1,
                        java.time.Instant.now(),
                        List.of(hostile.email()),
                        List.of(hostile.url(), hostile.url()));
                io.dynarestore.core.kafka.EventPublisher.await(publisher.send(Topic.NOTIFICATIONS, id, targets));
                var accepted = new io.dynarestore.contracts.request.RestoreRequested(
                                id,
                                null,
                                null,
                                null,
                                null,
                                null,
                                io.dynarestore.contracts.request.Source.backup(
                                        "000000000000", "us-east-1", "orders", "b-x"),
                                null,
                                new io.dynarestore.contracts.request.Destination.NewTable(null, null, "t", null),
                                new io.dynarestore.contracts.request.Notify(List.of("x@example.com"), null),
                                null)
                        .normalized(id, "e", java.time.Instant.now());
                publisher.send(Topic.STATUS, id, io.dynarestore.contracts.status.RestoreAccepted.of(accepted));
                publisher.send(Topic.STATUS, id, io.dynarestore.contracts.status.RestoreFailed.of(id, "fuzzed", 0));
            }
            publisher.flush();
        }
        System.out.println("Hostile fields: " + HOSTILE_CASES + " REST calls (answers by status " + statuses
                + ") and Kafka messages, " + NOTIFIER_CASES + " restores with hostile notification targets");
        assertThat(failures).isEmpty();
        // every notice of the hostile restores is finished (delivered or abandoned) and the notifier goes on
        var notifications = TopicRecorder.follow(stack.kafka.bootstrapServers(), Topic.NOTIFICATIONS.topicName());
        try (notifications) {
            await().atMost(Duration.ofMinutes(2))
                    .untilAsserted(() -> assertThat(notifications.all().stream()
                                    .filter(e -> e.restoreId() != null
                                            && e.restoreId().startsWith("hostile-notice-")
                                            && e.type() != null
                                            && e.type().startsWith("Notification")
                                            && !e.type().equals("NotificationsRequested"))
                                    .map(TopicRecorder.Entry::restoreId)
                                    .distinct()
                                    .count())
                            .isEqualTo(NOTIFIER_CASES));
        }
        assertHealthyAndRestoring("after-hostile");
    }

    static String q(String s) {
        return io.dynarestore.testkit.HostileFields.quoted(s);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static HttpRequest post(String path, String body) {
        return HttpRequest.newBuilder(stack.apiUri(path))
                .header(LocalApi.HEADER, LocalApi.KEY)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    static HttpRequest get(String path) {
        return HttpRequest.newBuilder(stack.apiUri(path))
                .header(LocalApi.HEADER, LocalApi.KEY)
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build();
    }

    /**
     * Every consumer thread of every service runs and every liveness is UP; a real restore still
     * completes, and its end mail arrives (the notifier's consumer goes on).
     */
    static void assertHealthyAndRestoring(String id) throws Exception {
        for (var service : services) {
            var health = service.getBean(io.dynarestore.core.kafka.ConsumerHealth.class);
            assertThat(health.healthy()).as(health.details().toString()).isTrue();
            assertThat(Http.get(RestoreStack.uri(service, "/actuator/health/liveness"))
                            .status())
                    .isEqualTo(200);
        }
        String restoreId = stack.restoreAndAwaitCompletion("""
                {"restoreId": "%s", "source": {"table": "orders", "backupId": "b-fuzz"},
                 "notify": {"emails": ["%s@example.com"]},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-%s"}}""".formatted(id, id, id));
        assertThat(restoreId).isEqualTo(id);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> java.util.Arrays.stream(smtp.getReceivedMessages()).anyMatch(m -> {
                    try {
                        return m.getSubject().contains(id);
                    } catch (jakarta.mail.MessagingException e) {
                        return false;
                    }
                }));
    }

    static HttpRequest garbledGet(Random random) {
        String template = PATHS[random.nextInt(PATHS.length)];
        Object[] args = new Object[5];
        for (int i = 0; i < args.length; i++) {
            String odd = ODD[random.nextInt(ODD.length)];
            args[i] = random.nextBoolean()
                    ? URLEncoder.encode(odd, StandardCharsets.UTF_8)
                    : odd.replace(" ", "%20")
                            .replace("\u202e", "%E2%80%AE")
                            .replace("ñ", "%C3%B1")
                            .replace("<", "%3C")
                            .replace("'", "%27")
                            .replace("{", "%7B")
                            .replace("}", "%7D")
                            .replace("$", "%24")
                            .replace("%zz", "%25zz")
                            .replace("%00", "%2500")
                            .replace("%2e%2e%2f", "%252e%252e%252f")
                            .replaceAll("^%$", "%25");
        }
        String path = String.format(template, args);
        URI uri;
        try {
            uri = stack.apiUri(path);
        } catch (IllegalArgumentException e) {
            uri = stack.apiUri("/restores/" + URLEncoder.encode(path, StandardCharsets.UTF_8));
        }
        return HttpRequest.newBuilder(uri)
                .header(LocalApi.HEADER, LocalApi.KEY)
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
    }

    static HttpRequest garbledPost(Random random, int seed) {
        String[] bodies = {"""
            {"source": {"table": "orders", "backupId": "b-fuzz"}, "destination": {"type": "NEW_TABLE", "tableName": "fz"}}""", """
            {"source": {"table": "orders", "backupId": "b-fuzz"},
             "scope": {"type": "RECORDS", "keyFilters": [{"partitionKey": {"condition": "BeginsWith", "values": ["p1"]}}]},
             "limit": 5}""", """
            {"requestedBy": "x", "reason": "y"}"""};
        String[] paths = {
            "/restores",
            "/restores/preview",
            "/restores/fuzz-" + seed + "/cancel",
            "/tables/orders/exports",
            "/links/abc"
        };
        int which = random.nextInt(paths.length);
        String body = new io.dynarestore.testkit.Mutations(seed).json(bodies[which % bodies.length]);
        String contentType = which == 4
                ? "application/x-www-form-urlencoded"
                : random.nextInt(10) == 0 ? "text/plain" : "application/json";
        return HttpRequest.newBuilder(stack.apiUri(paths[which]))
                .header(LocalApi.HEADER, LocalApi.KEY)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }
}
