package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Notify;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.RestoreRequests;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Granular recovery by email link, through restore-api, restore-planner, exporter and notifier,
 * with GreenMail as the SMTP server: the mail carries the link and never the passcode; the
 * passcode opens the file; wrong passcodes lock the link, counted across replicas and restarts;
 * an expired link opens nothing.
 */
class EmailDeliveryIT {

    static final int ITEMS = 600;
    static final Pattern LINK = Pattern.compile("(http://\\S+)/links/([A-Za-z0-9_-]{43})");
    static RestoreStack stack;
    static GreenMail smtp;
    static RandomItems items = new RandomItems(4242, BackupFixtures.SHAPE);
    static final String UPSTREAM_KEY = "upstream-signing-key-0123456789abcdefgh";

    /** Everything the services log while this class runs (they log to the console). */
    static final java.io.ByteArrayOutputStream logs = new java.io.ByteArrayOutputStream();

    static java.io.PrintStream console;

    @BeforeAll
    static void startStack() throws Exception {
        console = System.out;
        System.setOut(new java.io.PrintStream(
                new java.io.OutputStream() {
                    @Override
                    public void write(int b) {
                        console.write(b);
                        synchronized (logs) {
                            logs.write(b);
                        }
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                        console.write(b, off, len);
                        synchronized (logs) {
                            logs.write(b, off, len);
                        }
                    }
                },
                true,
                StandardCharsets.UTF_8));
        smtp = new GreenMail(new ServerSetup(Ports.free(), "127.0.0.1", "smtp"));
        smtp.start();
        stack = RestoreStack.infrastructure();
        // the test's own publisher of requests on Kafka ("upstream", proven by its key) may restore into files
        stack.startPlanner(
                "--planner.access.principals.upstream=restore", "--planner.access.keys.upstream=" + UPSTREAM_KEY);
        stack.startExporter();
        stack.startApi();
        stack.startNotifier(smtp.getSmtp().getPort());
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "invoices");
        BackupFixtures.writeItems(stack, source, "b-mail", items.items(ITEMS), 300, List.of(), null, null);
    }

    @AfterAll
    static void stopStack() {
        System.setOut(console);
        stack.close();
        smtp.stop();
    }

    /** A restore of every item into a file mailed to {@code recipient}; returns the POST answer. */
    static JsonNode submit(URI api, String recipient) throws Exception {
        var response = Http.post(api.resolve("/restores"), """
                {"source": {"table": "invoices", "backupId": "b-mail"}, "requestedBy": "dana@example.com",
                 "destination": {"type": "FILE", "format": "CSV",
                   "delivery": {"type": "EMAIL", "recipients": ["%s"], "message": "The invoices you asked for."}}}""".formatted(recipient));
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        return response.json();
    }

    /** Waits for the one mail to {@code recipient} and returns its text. */
    static String mailTo(String recipient) throws Exception {
        await().atMost(Duration.ofMinutes(2)).until(() -> mails(recipient).size() == 1);
        Thread.sleep(300); // a second mail would show now
        var found = mails(recipient);
        assertThat(found).hasSize(1);
        return ((String) found.get(0).getContent()).replace("\r\n", "\n");
    }

    static List<MimeMessage> mails(String recipient) throws Exception {
        return java.util.Arrays.stream(smtp.getReceivedMessages())
                .filter(m -> {
                    try {
                        return m.getAllRecipients()[0].toString().equals(recipient);
                    } catch (jakarta.mail.MessagingException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }

    static String token(String mail) {
        Matcher m = LINK.matcher(mail);
        assertThat(m.find()).as(mail).isTrue();
        return m.group(2);
    }

    static HttpResponse<byte[]> enter(URI api, String token, String passcode) throws Exception {
        var request = HttpRequest.newBuilder(api.resolve("/links/" + token))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "passcode=" + URLEncoder.encode(passcode, StandardCharsets.UTF_8)))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    static HttpResponse<String> page(URI api, String token) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(api.resolve("/links/" + token)).build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    /** A wrong passcode of the passcode alphabet (never equal to {@code right}). */
    static String wrong(String right, int n) {
        String candidate = "ZZZZZ-ZZZZ" + "0123456789".charAt(n % 10);
        return candidate.equals(right) ? "YYYYY-YYYYY" : candidate;
    }

    @Test
    void mailsTheLinkWithoutThePasscodeAndTheRightPasscodeDownloadsTheFile() throws Exception {
        // When every item of the backup is restored into a file mailed to alice
        JsonNode answer = submit(stack.apiUri(""), "alice@example.com");
        String id = answer.get("restoreId").asString();
        String passcode = answer.get("emailLink").get("passcode").asString();

        // Then the answer shows a passcode of 50 random bits, once
        assertThat(passcode).matches("[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}");
        assertThat(Http.get(stack.apiUri("/restores/" + id)).body()).doesNotContain(passcode);

        // and alice gets one mail with the link, the message and the file's checksum, and no passcode
        String mail = mailTo("alice@example.com");
        String token = token(mail);
        // (said by the authenticated caller, the local key, on behalf of whom the request names)
        assertThat(mail)
                .contains("local (for dana@example.com) shared a file")
                .contains("The invoices you asked for.")
                .contains("asks for a passcode");
        assertThat(mail).doesNotContain(passcode).doesNotContain(passcode.replace("-", ""));
        JsonNode view = Http.get(stack.apiUri("/restores/" + id)).json();
        assertThat(view.get("state").asString()).isEqualTo("COMPLETED");
        assertThat(mail).contains(view.get("file").get("sha256").asString());

        // When alice opens the link, the page asks for the passcode
        var page = page(stack.apiUri(""), token);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(page.body())
                .contains("<form method=\"post\"")
                .contains("name=\"passcode\"")
                .contains(ITEMS + " records");

        // and with the passcode (typed in lower case, without the dash) she downloads the file
        var download = enter(stack.apiUri(""), token, passcode.toLowerCase().replace("-", ""));
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.headers().firstValue("Content-Disposition").orElse(""))
                .contains("attachment");

        // Then the file is the restore's file, byte for byte (its checksum), and holds every item of the backup,
        // while the download endpoint refuses it: a mailed file opens only through its link
        assertThat(java.util.HexFormat.of()
                        .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                .digest(download.body())))
                .isEqualTo(view.get("file").get("sha256").asString());
        assertThat(download.headers().firstValue("X-Checksum-SHA256").orElse(""))
                .isEqualTo(view.get("file").get("sha256").asString());
        assertThat(GranularRecoveryIT.get(stack.apiUri("/restores/" + id + "/download"))
                        .statusCode())
                .isEqualTo(403);
        var rows = GranularRecoveryIT.read(new String(download.body(), StandardCharsets.UTF_8));
        var expected = items.items(ITEMS).stream()
                .map(GranularRecoveryIT::withoutEmptyStrings)
                .toList();
        assertThat(ItemDigests.of(rows, BackupFixtures.KEYS)).isEqualTo(ItemDigests.of(expected, BackupFixtures.KEYS));

        // and the right passcode opens it again
        assertThat(enter(stack.apiUri(""), token, passcode).statusCode()).isEqualTo(200);

        // and neither the passcode nor the link's token is in any log line, status event or request
        String logged;
        synchronized (logs) {
            logged = logs.toString(StandardCharsets.UTF_8);
        }
        assertThat(logged)
                .contains(id)
                .doesNotContain(passcode)
                .doesNotContain(passcode.replace("-", ""))
                .doesNotContain(token);
        for (String topic : List.of(Topic.STATUS.topicName(), Topic.REQUESTS.topicName())) {
            try (var log = TopicRecorder.follow(stack.kafka.bootstrapServers(), topic)) {
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> log.all().stream().anyMatch(e -> e.raw().contains(id)));
                assertThat(log.all())
                        .allSatisfy(e -> assertThat(e.raw())
                                .doesNotContain(passcode)
                                .doesNotContain(passcode.replace("-", ""))
                                .doesNotContain(token));
            }
        }
    }

    @Test
    void locksTheLinkAfterFiveWrongPasscodesCountedAcrossReplicasAndRestarts() throws Exception {
        // Given a link mailed to bob, and a second restore-api replica beside the first
        JsonNode answer = submit(stack.apiUri(""), "bob@example.com");
        String passcode = answer.get("emailLink").get("passcode").asString();
        String token = token(mailTo("bob@example.com"));
        URI first = stack.apiUri("");
        ConfigurableApplicationContext second = stack.startApiReplica();
        URI secondUri = RestoreStack.uri(second, "");

        // When two wrong passcodes go to the first replica and two to the second
        int[] expectedLeft = {4, 3, 2, 1};
        URI[] replicas = {first, first, secondUri, secondUri};
        for (int i = 0; i < 4; i++) {
            var r = enter(replicas[i], token, wrong(passcode, i));
            assertThat(r.statusCode()).isEqualTo(403);
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains(expectedLeft[i] + " tr");
        }

        // and restore-api restarts (both replicas stop, a new one starts)
        for (var context : new ConfigurableApplicationContext[] {apiAt(first), second}) {
            stack.stop(context);
        }
        var restarted = stack.startApi();
        URI third = RestoreStack.uri(restarted, "");

        // Then the restarted one knows 4 tries were wrong: the fifth wrong one locks the link
        assertThat(page(third, token).body()).contains("1 more wrong passcodes");
        var fifth = enter(third, token, wrong(passcode, 5));
        assertThat(fifth.statusCode()).isEqualTo(403);
        assertThat(new String(fifth.body(), StandardCharsets.UTF_8)).contains("0 tries are left");

        // and from then on even the right passcode opens nothing
        var locked = enter(third, token, passcode);
        assertThat(locked.statusCode()).isEqualTo(423);
        assertThat(new String(locked.body(), StandardCharsets.UTF_8)).contains("locked");
        assertThat(page(third, token).statusCode()).isEqualTo(423);
        var problem = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(third.resolve("/links/" + token))
                                .header("Accept", "application/problem+json")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(problem.statusCode()).isEqualTo(423);
        assertThat(problem.body()).contains("\"code\":\"LINK_LOCKED\"");
    }

    @Test
    void refusesAnExpiredLink() throws Exception {
        // Given a restore-api replica whose links expire after 3 seconds, and a link it issued to carol
        var shortLived = stack.startApiReplica("--api.links.expiry=3s");
        URI api = RestoreStack.uri(shortLived, "");
        String passcode = submit(api, "carol@example.com")
                .get("emailLink")
                .get("passcode")
                .asString();
        String token = token(mailTo("carol@example.com"));

        // When the link has expired
        await().atMost(Duration.ofSeconds(10)).until(() -> page(api, token).statusCode() == 410);

        // Then the right passcode opens nothing, and the page says to ask for a new link
        var refused = enter(api, token, passcode);
        assertThat(refused.statusCode()).isEqualTo(410);
        assertThat(new String(refused.body(), StandardCharsets.UTF_8))
                .contains("expired")
                .contains("new one");
    }

    @Test
    void rejectsAnEmailDeliveryPublishedToKafkaWithoutALink() throws Exception {
        // Given a request with email delivery published straight to restore.requests (no passcode exists)
        String id = "kafka-mail-" + UUID.randomUUID();
        var request = RestoreRequests.aRestore(id)
                .fromBackup("invoices", "b-mail")
                .toFile(new Destination.Delivery.Email(List.of("eve@example.com"), null))
                .normalizedAt(Instant.now());
        publishAsUpstream(id, request);

        // Then it is rejected with the reason and the way to do it
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            var r = Http.get(stack.apiUri("/restores/" + id));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().get("state").asString()).isEqualTo("REJECTED");
            assertThat(r.json().get("code").asString()).isEqualTo("UNSUPPORTED");
            assertThat(r.json().get("reason").asString()).contains("POST /restores");
        });
    }

    @Test
    void aMalformedWebhookIsRefusedAtEveryEdgeAndTheNextRestoreStillGetsItsEndMail() throws Exception {
        // When a webhook URL that is no URL, and one of the cloud metadata address, are submitted by REST
        var malformed = Http.post(stack.apiUri("/restores"), fileRestore("\"webhooks\": [\"http://a b/\"]"));
        var metadata = Http.post(
                stack.apiUri("/restores"),
                fileRestore("\"webhooks\": [\"https://169.254.169.254/latest/meta-data/\"]"));
        // and the malformed one straight to restore.requests, bypassing REST
        String kafkaId = "kafka-hook-" + UUID.randomUUID();
        var request = RestoreRequests.aRestore(kafkaId)
                .fromBackup("invoices", "b-mail")
                .toFile(new Destination.Delivery.Download())
                .notifying(new Notify(null, List.of("http://a b/")))
                .normalizedAt(Instant.now());
        publishAsUpstream(kafkaId, request);

        // Then each is refused naming the field
        assertThat(malformed.status()).as(malformed.body()).isEqualTo(400);
        assertThat(malformed.json().get("errors").toString()).contains("/notify/webhooks/0");
        assertThat(metadata.status()).as(metadata.body()).isEqualTo(400);
        assertThat(metadata.json().get("detail").asString()).contains("link-local");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            var r = Http.get(stack.apiUri("/restores/" + kafkaId));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().get("state").asString()).isEqualTo("REJECTED");
            assertThat(r.json().get("reason").asString()).contains("/notify/webhooks/0");
        });

        // and a restore after them still gets its end mail: no notifier consumer stopped
        var next = Http.post(stack.apiUri("/restores"), fileRestore("\"emails\": [\"after-hooks@example.com\"]"));
        assertThat(next.status()).as(next.body()).isEqualTo(202);
        assertThat(mailTo("after-hooks@example.com")).contains("completed");
        // whose address dashboards never see: it is on the notifier's topic, not on restore.status
        try (var statusLog = stack.followStatus();
                var notifications =
                        TopicRecorder.follow(stack.kafka.bootstrapServers(), Topic.NOTIFICATIONS.topicName())) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            notifications.all().stream().anyMatch(e -> e.raw().contains("after-hooks@example.com")));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> statusLog.all().stream()
                            .anyMatch(e -> "RestoreCompleted".equals(e.type())
                                    && next.json().get("restoreId").asString().equals(e.restoreId())));
            assertThat(statusLog.all()).noneSatisfy(e -> assertThat(e.raw()).contains("after-hooks@example.com"));
        }
    }

    @Test
    void aRequesterThatForgesALogLineIsRefusedAndNoServiceLogsAForgedLine() throws Exception {
        // When a requester with a line break comes by REST, a cancel reason with one, and a request on Kafka
        var rest = Http.post(stack.apiUri("/restores"), """
                {"source": {"table": "invoices", "backupId": "b-mail"}, "requestedBy": "ann\\r\\nINFO forged rest line",
                 "destination": {"type": "FILE", "format": "CSV", "delivery": {"type": "DOWNLOAD"}}}""");
        var cancel = Http.post(
                stack.apiUri("/restores/no-such-restore/cancel"),
                "{\"reason\": \"stop\\r\\nINFO forged cancel line\"}");
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, String>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers()),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.StringSerializer())) {
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                            "restore.requests",
                            "forge",
                            "{\"restoreId\": \"forge\\r\\nINFO forged id line\", \"requestedBy\": \"x\\nINFO forged kafka line\","
                                    + " \"source\": {\"table\": \"invoices\\nINFO forged table line\", \"snapId\": \"s\\nINFO "
                                    + "forged snap line\"}, \"destination\": {\"type\": \"NEW_TABLE\"}}"))
                    .get();
        }

        // Then REST refuses both naming the field
        assertThat(rest.status()).as(rest.body()).isEqualTo(400);
        assertThat(rest.body()).contains("/requestedBy");
        assertThat(cancel.status()).isIn(400, 404);
        // and once the planner judged the Kafka request (it is a dead letter), no service wrote a line that begins
        // as forged
        try (var deadLetters = TopicRecorder.follow(stack.kafka.bootstrapServers(), Topic.REQUESTS.dlt())) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> deadLetters.all().stream().anyMatch(e -> "forge".equals(e.key())));
        }
        String logged;
        synchronized (logs) {
            logged = logs.toString(StandardCharsets.UTF_8);
        }
        assertThat(logged.lines()).noneMatch(line -> line.startsWith("INFO forged"));
    }

    static String fileRestore(String notify) {
        return "{\"source\": {\"table\": \"invoices\", \"backupId\": \"b-mail\"}, \"notify\": {" + notify + "},"
                + "\"destination\": {\"type\": \"FILE\", \"format\": \"CSV\", \"delivery\": {\"type\": \"DOWNLOAD\"}}}";
    }

    /** Publishes {@code request} as the upstream system does: named and signed with its key. */
    static void publishAsUpstream(String id, RestoreRequested request) {
        try (var publisher = new EventPublisher(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers()),
                "upstream",
                UPSTREAM_KEY)) {
            EventPublisher.await(publisher.send(Topic.REQUESTS, id, request));
        }
    }

    private static ConfigurableApplicationContext apiAt(URI uri) {
        return stack.contextAt(uri);
    }
}
