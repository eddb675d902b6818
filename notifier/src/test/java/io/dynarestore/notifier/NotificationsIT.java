package io.dynarestore.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.notifications.NotificationAbandoned;
import io.dynarestore.contracts.notifications.NotificationEvent;
import io.dynarestore.contracts.notifications.NotificationsRequested;
import io.dynarestore.contracts.protection.DrillFailed;
import io.dynarestore.contracts.protection.DrillPassed;
import io.dynarestore.contracts.protection.DrillSkipped;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Notify;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.RestoreRequests;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.contracts.webhooks.WebhookSignature;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.TopicRecorder;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * notifier on a real broker, with a local HTTP receiver for webhooks and GreenMail for SMTP:
 * status events in, signed webhooks and mails out, each sent once.
 */
class NotificationsIT {

    static final String SECRET =
            "whsec_" + java.util.Base64.getEncoder().encodeToString("a-test-signing-key-of-32-bytes!!".getBytes());

    static KafkaBroker kafka;
    static GreenMail smtp;
    static HttpServer receiver;
    static EventPublisher publisher;
    static ConfigurableApplicationContext notifier;
    /** Every request the receiver got, by path. */
    static final Map<String, List<Received>> received = new ConcurrentHashMap<>();
    /** Paths that answer 500 this many more times before answering 204. */
    static final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();

    record Received(String id, String timestamp, String signature, byte[] body, int answered) {}

    @BeforeAll
    static void start() throws Exception {
        kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
        smtp = new GreenMail(new ServerSetup(Ports.free(), "127.0.0.1", "smtp"));
        smtp.start();
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            AtomicInteger left = failuresLeft.getOrDefault(path, new AtomicInteger());
            int status = left.getAndDecrement() > 0 ? 500 : 204;
            received.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>())
                    .add(new Received(
                            exchange.getRequestHeaders().getFirst(WebhookSignature.ID),
                            exchange.getRequestHeaders().getFirst(WebhookSignature.TIMESTAMP),
                            exchange.getRequestHeaders().getFirst(WebhookSignature.SIGNATURE),
                            body,
                            status));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        receiver.start();
        publisher =
                new EventPublisher(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), "test");
        notifier = startNotifier();
    }

    static ConfigurableApplicationContext startNotifier() {
        return NotifierApplication.builder()
                .run(
                        "--spring.profiles.active=local",
                        "--server.port=0",
                        "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                        "--spring.mail.host=127.0.0.1",
                        "--spring.mail.port=" + smtp.getSmtp().getPort(),
                        "--notifier.webhooks.signing-secret=" + SECRET,
                        // the test's receivers listen on loopback, which webhooks reach only when an operator allows it
                        "--notifier.webhooks.allow=127.0.0.1",
                        "--notifier.webhooks.timeout=2s",
                        "--notifier.public-url=https://restore.example.com",
                        "--notifier.retries.max-attempts=3",
                        "--notifier.retries.initial-backoff=200ms",
                        "--notifier.alerts.webhooks=" + hook("/alerts"),
                        "--notifier.alerts.emails=oncall@example.com");
    }

    @AfterAll
    static void stop() {
        notifier.close();
        publisher.close();
        receiver.stop(0);
        smtp.stop();
        kafka.close();
    }

    static String hook(String path) {
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + path;
    }

    static RestoreRequested request(String id, List<String> emails, List<String> webhooks) {
        return RestoreRequests.aRestore(id)
                .requestedBy("ops@example.com")
                .fromBackup("orders", "b-1")
                .into(new Destination.NewTable(
                        RestoreRequests.ACCOUNT, RestoreRequests.REGION, "orders-restored", null))
                .notifying(new Notify(emails, webhooks))
                .normalizedAt(Instant.now());
    }

    /** What the planner publishes when it accepts a request: the targets for the notifier, then the acceptance. */
    static void accepted(RestoreRequested request) {
        var targets = NotificationsRequested.of(request);
        if (targets != null) {
            EventPublisher.await(publisher.send(Topic.NOTIFICATIONS, request.restoreId(), targets));
        }
        EventPublisher.await(publisher.send(
                Topic.STATUS, request.restoreId(), RestoreAccepted.of(request, null, null, "ops-portal")));
    }

    static RestoreCompleted completed(String id) {
        var event = RestoreCompleted.of(
                id, new TableRef("000000000000", "us-east-1", "orders-restored"), 1234, 99_000, 4, 61_000);
        EventPublisher.await(publisher.send(Topic.STATUS, id, event));
        return event;
    }

    @Test
    void postsASignedWebhookAndRetriesItAfterA500() throws Exception {
        // Given a restore whose request subscribes a webhook that answers 500 once
        String id = "hook-" + UUID.randomUUID();
        failuresLeft.put("/retry", new AtomicInteger(1));
        accepted(request(id, null, List.of(hook("/retry"))));

        // When the restore completes
        RestoreCompleted end = completed(id);

        // Then the webhook is posted twice: a 500, then a 204, with the same id and the event as body
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(received.getOrDefault("/retry", List.of()))
                        .extracting(Received::answered)
                        .containsExactly(500, 204));
        for (Received r : received.get("/retry")) {
            assertThat(r.id()).isEqualTo(end.eventId());
            assertThat(Json.mapper().readTree(r.body()).get("type").asString()).isEqualTo("RestoreCompleted");
            assertThat(Json.mapper().readTree(r.body()).get("restoreId").asString())
                    .isEqualTo(id);
            // and the signature verifies with the shared secret, and not with another
            long ts = Long.parseLong(r.timestamp());
            Predicate<String> verifiesWith = secret -> WebhookSignature.verify(
                    secret, r.id(), ts, r.body(), r.signature(), Instant.now().getEpochSecond(), 300);
            assertThat(verifiesWith.test(SECRET)).isTrue();
            assertThat(verifiesWith.test("whsec_b3RoZXI=")).isFalse();
        }
    }

    @Test
    void alertsTheOperatorsOnceWhenADrillFailsAndNotWhenOnePassesOrIsSkipped() throws Exception {
        // Given a notifier whose alerts go to a webhook and to the on-call address, and a table's drills
        String table = "orders-" + UUID.randomUUID().toString().substring(0, 8);
        String key = Topic.tableKey(RestoreRequests.ACCOUNT, RestoreRequests.REGION, table);
        var failed = DrillFailed.of(
                RestoreRequests.ACCOUNT,
                RestoreRequests.REGION,
                table,
                "20261207T0600Z-drill",
                "drill-20261207T0600Z-" + table,
                "backup b-9",
                table + "-drill-20261207T0600Z",
                4_000L,
                0L,
                "verification failed: 2 of 300 items differ from the backup");
        var passed = DrillPassed.of(
                RestoreRequests.ACCOUNT,
                RestoreRequests.REGION,
                table,
                "20261207T0500Z-drill",
                "drill-20261207T0500Z-" + table,
                "backup b-8",
                table + "-drill-20261207T0500Z",
                3_000L,
                300L);
        var skipped = DrillSkipped.of(
                RestoreRequests.ACCOUNT,
                RestoreRequests.REGION,
                table,
                "20261207T0400Z-drill",
                "the table's first backup is still being taken");
        var longAgo = new DrillFailed(
                "old-" + UUID.randomUUID(),
                1,
                Instant.now().minus(Duration.ofDays(3)),
                RestoreRequests.ACCOUNT,
                RestoreRequests.REGION,
                table,
                "20261204T0600Z-drill",
                "drill-20261204T0600Z-" + table,
                "backup b-1",
                table + "-drill-20261204T0600Z",
                1_000L,
                0L,
                "the restore failed");

        // When a drill is skipped, one passes, one fails (its event read twice) and a failure from days ago is read
        EventPublisher.await(publisher.send(Topic.PROTECTION_EVENTS, key, skipped));
        EventPublisher.await(publisher.send(Topic.PROTECTION_EVENTS, key, passed));
        EventPublisher.await(publisher.send(Topic.PROTECTION_EVENTS, key, longAgo));
        EventPublisher.await(publisher.send(Topic.PROTECTION_EVENTS, key, failed));
        EventPublisher.await(publisher.send(Topic.PROTECTION_EVENTS, key, failed));

        // Then the webhook gets the failed drill's event once, signed, and the on-call address one mail
        // that says which table, why, and where the drill's restore is
        await().atMost(Duration.ofSeconds(30))
                .until(() -> alertsFor(table).size() == 1
                        && mailsTo("oncall@example.com", table).size() == 1);
        Thread.sleep(3_000);
        assertThat(alertsFor(table)).hasSize(1);
        Received alert = alertsFor(table).get(0);
        var body = Json.mapper().readTree(alert.body());
        assertThat(body.get("type").asString()).isEqualTo("DrillFailed");
        assertThat(body.get("restore").asString()).isEqualTo(failed.restore());
        assertThat(alert.id()).isEqualTo(failed.eventId());
        assertThat(WebhookSignature.verify(
                        SECRET,
                        alert.id(),
                        Long.parseLong(alert.timestamp()),
                        alert.body(),
                        alert.signature(),
                        Instant.now().getEpochSecond(),
                        300))
                .isTrue();
        var mails = mailsTo("oncall@example.com", table);
        assertThat(mails).hasSize(1);
        assertThat(mails.get(0).getSubject()).isEqualTo("Restore drill of " + table + " failed");
        assertThat(GreenMailUtil.getBody(mails.get(0)))
                .contains("2 of 300 items differ")
                .contains("https://restore.example.com/restores/" + failed.restore());
    }

    static List<Received> alertsFor(String table) {
        return received.getOrDefault("/alerts", List.of()).stream()
                .filter(r -> new String(r.body()).contains("\"" + table + "\""))
                .toList();
    }

    @Test
    void givesUpAfterTheLastTryAndPutsTheWebhookOnTheDeadLetterTopic() throws Exception {
        // Given a webhook that always answers 500
        String id = "dead-" + UUID.randomUUID();
        failuresLeft.put("/down", new AtomicInteger(1_000));
        accepted(request(id, null, List.of(hook("/down"))));

        // When the restore fails
        EventPublisher.await(publisher.send(Topic.STATUS, id, RestoreFailed.of(id, "the table was deleted", 10)));

        // Then it is tried 3 times, then the body is on the dead-letter topic and the abandonment recorded,
        // the target (a URL that may carry a token) only on restore.notifications
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(records(Topic.NOTIFICATIONS.dlt())).anySatisfy(r -> {
                assertThat(r.key()).isEqualTo(id);
                assertThat(new String(r.value())).contains("\"RestoreFailed\"").contains("the table was deleted");
                assertThat(r.headers()).doesNotContainKey("dynarestore_target");
                r.headers().values().forEach(h -> assertThat(h).doesNotContain("/down"));
            });
            assertThat(records(Topic.NOTIFICATIONS.topicName()))
                    .map(r -> Json.mapper().readValue(r.value(), NotificationEvent.class))
                    .anySatisfy(e -> {
                        assertThat(e).isInstanceOf(NotificationAbandoned.class);
                        assertThat(((NotificationAbandoned) e).attempts()).isEqualTo(3);
                        assertThat(((NotificationAbandoned) e).error()).contains("500");
                    });
        });
        assertThat(received.get("/down")).hasSize(3);
    }

    @Test
    void mailsTheRequesterWhenARestoreEnds() throws Exception {
        // Given a restore whose request asks for a mail at the end
        String id = "mail-" + UUID.randomUUID();
        accepted(request(id, List.of("owner@example.com"), null));

        // When it completes
        completed(id);

        // Then the owner gets one mail that says so and links to the restore
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(mailsTo("owner@example.com", id)).hasSize(1));
        var mail = mailsTo("owner@example.com", id).get(0);
        assertThat(mail.getSubject()).isEqualTo("Restore " + id + " completed");
        assertThat(GreenMailUtil.getBody(mail))
                .contains("Items written: 1234")
                .contains("https://restore.example.com/restores/" + id);
    }

    @Test
    void sendsNothingTwiceWhenARestartedNotifierReadsTheEventsAgain() throws Exception {
        // Given a restore that was notified, and one that was accepted but has not ended
        String done = "once-" + UUID.randomUUID();
        String open = "open-" + UUID.randomUUID();
        accepted(request(done, List.of("once@example.com"), List.of(hook("/once"))));
        completed(done);
        accepted(request(open, null, List.of(hook("/open"))));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> received.getOrDefault("/once", List.of()).size() == 1
                        && mailsTo("once@example.com", done).size() == 1);

        // When the notifier stops, its group's offsets go back to the start (every event is delivered
        // again), and a new notifier starts; then the open restore ends
        notifier.close();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            var rewind = new java.util.HashMap<TopicPartition, OffsetAndMetadata>();
            for (int p = 0; p < Topic.STATUS.defaultPartitions(); p++) {
                rewind.put(new TopicPartition(Topic.STATUS.topicName(), p), new OffsetAndMetadata(0));
            }
            admin.alterConsumerGroupOffsets("notifier", rewind).all().get();
        }
        notifier = startNotifier();
        completed(open);

        // Then the open restore is notified once, and the finished one is not notified again
        await().atMost(Duration.ofSeconds(60))
                .until(() -> received.getOrDefault("/open", List.of()).size() == 1);
        Thread.sleep(1_000); // room for a duplicate to show
        assertThat(received.get("/open")).hasSize(1);
        assertThat(received.get("/once")).hasSize(1);
        assertThat(mailsTo("once@example.com", done)).hasSize(1);
    }

    @Test
    void aMalformedWebhookUrlIsThatDeliverysFailureAndTheNextRestoreStillGetsItsMail() throws Exception {
        // Given a restore whose targets hold a URL no intake would take (published straight to the topic),
        // the attack that used to end the notifier's consumer thread for good
        String broken = "broken-" + UUID.randomUUID();
        accepted(request(broken, List.of("first@example.com"), List.of("http://a b/", "https://[::1/x")));

        // When it ends, and then another restore ends
        completed(broken);
        String next = "after-" + UUID.randomUUID();
        accepted(request(next, List.of("next@example.com"), null));
        completed(next);

        // Then each bad URL is abandoned with the reason, the mail of the same restore is sent,
        // and the next restore still gets its mail: no consumer stopped, liveness stays UP
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(mailsTo("next@example.com", next)).hasSize(1);
            assertThat(mailsTo("first@example.com", broken)).hasSize(1);
            assertThat(abandoned(broken)).hasSize(2).allSatisfy(a -> {
                assertThat(a.attempts()).isEqualTo(1);
                assertThat(a.error()).contains("not a valid URL");
            });
        });
        assertThat(liveness()).isEqualTo(200);
    }

    @Test
    void aReceiverThatNeverAnswersHoldsUpNoOtherDelivery() throws Exception {
        // Given a receiver that takes connections and never answers
        try (var blackHole = new java.net.ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"))) {
            var held = new CopyOnWriteArrayList<java.net.Socket>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(blackHole.accept());
                    }
                } catch (java.io.IOException e) {
                    // closed
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            String stuck = "stuck-" + UUID.randomUUID();
            String prompt = "prompt-" + UUID.randomUUID();
            accepted(request(stuck, null, List.of("http://127.0.0.1:" + blackHole.getLocalPort() + "/never")));
            accepted(request(prompt, null, List.of(hook("/prompt"))));

            // When the stuck restore ends first, then the other
            completed(stuck);
            Instant before = Instant.now();
            completed(prompt);

            // Then the other's webhook arrives well before the stuck one's first try has timed out (2 s, 4 s in all)
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !received.getOrDefault("/prompt", List.of()).isEmpty());
            assertThat(Duration.between(before, Instant.now())).isLessThan(Duration.ofSeconds(3));
            // and the stuck one is abandoned after its tries, each cut off by its deadline
            await().atMost(Duration.ofSeconds(40))
                    .untilAsserted(() -> assertThat(abandoned(stuck))
                            .singleElement()
                            .satisfies(a -> assertThat(a.attempts()).isEqualTo(3)));
            for (var socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void aLinkMailThatCannotBeSentLeavesItsTokenOutOfTheDeadLetterTopic() throws Exception {
        // Given a file restore by email link, to a recipient SMTP cannot take
        String id = "link-" + UUID.randomUUID();
        String token = "TOKEN_" + "k".repeat(37);
        var request = RestoreRequests.aRestore(id)
                .requestedBy("dana")
                .fromBackup("orders", "b-1")
                .toFile(new Destination.Delivery.Email(List.of("x@"), "row 7", "l-" + id))
                .normalizedAt(Instant.now());
        EventPublisher.await(publisher.send(
                Topic.LINKS,
                "l-" + id,
                io.dynarestore.contracts.links.LinkIssued.of(
                        id,
                        "l-" + id,
                        token,
                        "$argon2id$h",
                        List.of("x@"),
                        "row 7",
                        Instant.now().plusSeconds(3600))));
        accepted(request);
        EventPublisher.await(publisher.send(
                Topic.STATUS,
                id,
                io.dynarestore.contracts.status.ExportCompleted.of(
                        id, "vault", "_exports/" + id + "/orders.csv", 3, 100, "ab".repeat(32), false, 3)));

        // When it completes
        EventPublisher.await(publisher.send(Topic.STATUS, id, RestoreCompleted.of(id, null, 3, 100, 1, 900)));

        // Then the mail is abandoned, and its dead letter says so without the link or its token
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(records(Topic.NOTIFICATIONS.dlt()))
                        .filteredOn(r -> id.equals(r.key()))
                        .singleElement()
                        .satisfies(r -> {
                            assertThat(new String(r.value()))
                                    .contains("withheld")
                                    .doesNotContain(token);
                            r.headers().values().forEach(h -> assertThat(h).doesNotContain(token));
                        }));
    }

    static List<NotificationAbandoned> abandoned(String restoreId) {
        return records(Topic.NOTIFICATIONS.topicName()).stream()
                .map(r -> Json.mapper().readValue(r.value(), NotificationEvent.class))
                .filter(e ->
                        e instanceof NotificationAbandoned a && a.restoreId().equals(restoreId))
                .map(e -> (NotificationAbandoned) e)
                .toList();
    }

    static int liveness() throws Exception {
        return java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                                        + ((org.springframework.boot.web.server.context.WebServerApplicationContext)
                                                        notifier)
                                                .getWebServer()
                                                .getPort()
                                        + "/actuator/health/liveness"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    static List<jakarta.mail.internet.MimeMessage> mailsTo(String address, String restoreId) throws Exception {
        var out = new ArrayList<jakarta.mail.internet.MimeMessage>();
        for (var m : smtp.getReceivedMessages()) {
            if (m.getAllRecipients()[0].toString().equals(address)
                    && m.getSubject().contains(restoreId)) {
                out.add(m);
            }
        }
        return out;
    }

    static List<TopicRecorder.Entry> records(String topic) {
        return TopicRecorder.readToEnd(kafka.bootstrapServers(), topic, Duration.ofSeconds(10));
    }
}
