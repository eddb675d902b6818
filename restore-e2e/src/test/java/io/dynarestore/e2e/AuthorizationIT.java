package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.access.MessageSignature;
import io.dynarestore.contracts.access.Role;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every endpoint of restore-api, HEAD included, against every role, with API keys (the local
 * mode), including the roles a request's source needs (another account's catalog and backups);
 * the same rule on Kafka, where the planner believes a principal only on its signature; and the
 * attacks a caller with the restore role would try, each refused.
 */
class AuthorizationIT {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final String ABROAD = "111111111111";
    static final String ORDERS_SERVICE_KEY = "orders-service-signing-key-0123456789abcdef";
    static RestoreStack stack;
    static TopicRecorder status;
    static TopicRecorder requestDeadLetters;
    static KafkaProducer<String, String> producer;

    /** The callers: a key per role, some pairs, one with every role, and none. */
    enum Caller {
        NOBODY(null),
        READER(EnumSet.of(Role.READ)),
        READER_ABROAD(EnumSet.of(Role.READ, Role.CROSS_ACCOUNT)),
        RESTORER(EnumSet.of(Role.RESTORE)),
        IN_PLACE(EnumSet.of(Role.RESTORE_IN_PLACE)),
        OVERWRITER(EnumSet.of(Role.RESTORE_OVERWRITE)),
        CROSS_ACCOUNT_ONLY(EnumSet.of(Role.CROSS_ACCOUNT)),
        RESTORER_ABROAD(EnumSet.of(Role.RESTORE, Role.CROSS_ACCOUNT)),
        REGISTRAR(EnumSet.of(Role.REGISTER_EXPORTS)),
        PROTECTOR(EnumSet.of(Role.PROTECT)),
        PROTECTOR_ABROAD(EnumSet.of(Role.PROTECT, Role.CROSS_ACCOUNT)),
        ADMIN(EnumSet.allOf(Role.class)),
        FLOODER(EnumSet.of(Role.RESTORE, Role.READ));

        final Set<Role> roles;

        Caller(Set<Role> roles) {
            this.roles = roles;
        }

        String key() {
            return name().toLowerCase(java.util.Locale.ROOT) + "-key-0123456789";
        }

        String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One endpoint: {@code anyOf} the roles the URL rule takes ({@code null}: public), {@code allOf}
     * the roles the request's content needs besides.
     */
    record Endpoint(String method, String path, String body, Set<Role> anyOf, Set<Role> allOf) {
        boolean allows(Set<Role> roles) {
            return anyOf == null || roles.stream().anyMatch(anyOf::contains) && roles.containsAll(allOf);
        }

        @Override
        public String toString() {
            return method + " " + path + (body == null ? "" : " " + body.substring(0, Math.min(70, body.length())));
        }
    }

    static final Set<Role> READ = EnumSet.of(Role.READ);
    static final Set<Role> RESTORE = EnumSet.of(Role.RESTORE);
    static final Set<Role> RESTORING = EnumSet.of(Role.RESTORE, Role.RESTORE_IN_PLACE, Role.RESTORE_OVERWRITE);
    static final Set<Role> REGISTER = EnumSet.of(Role.REGISTER_EXPORTS);
    static final Set<Role> PROTECT = EnumSet.of(Role.PROTECT);
    static final Set<Role> NONE = EnumSet.noneOf(Role.class);
    static final Set<Role> READ_ABROAD = EnumSet.of(Role.READ, Role.CROSS_ACCOUNT);
    static final Set<Role> RESTORE_ABROAD = EnumSet.of(Role.RESTORE, Role.CROSS_ACCOUNT);

    static final String POLICY = "{\"backups\":{\"method\":\"SCAN\",\"every\":\"PT1H\",\"retention\":\"P35D\"}}";

    /** A GET of each path that needs READ here, and of the same path in {@link #ABROAD}, which needs the cross-account role too. */
    static List<Endpoint> readHereAndAbroad(String... paths) {
        var endpoints = new ArrayList<Endpoint>();
        for (String path : paths) {
            endpoints.add(new Endpoint("GET", path, null, READ, NONE));
            String abroad = path + (path.contains("?") ? "&" : "?") + "account=" + ABROAD;
            endpoints.add(new Endpoint("GET", abroad, null, READ, READ_ABROAD));
        }
        return endpoints;
    }

    static List<Endpoint> endpoints() {
        String missing = "\"backupId\":\"no-such-backup\"";
        // every read of a table's data, in this account and (with the cross-account role too) in another
        var gets = new ArrayList<>(readHereAndAbroad(
                "/tables",
                "/tables/orders/backups",
                "/tables/orders/pitr-windows",
                "/tables/orders/calendar?month=2026-11",
                "/tables/orders/activity",
                "/tables/orders/exports",
                "/tables/orders/protection"));
        gets.addAll(List.of(
                new Endpoint("GET", "/accounts", null, READ, NONE),
                new Endpoint("GET", "/restores", null, READ, NONE),
                new Endpoint("GET", "/restores/no-such-restore", null, READ, NONE),
                new Endpoint("GET", "/restores/no-such-restore/events", null, READ, NONE),
                new Endpoint("GET", "/restores/no-such-restore/download", null, RESTORE, NONE),
                new Endpoint("GET", "/tables/orders/items/history?key=%7B%7D", null, RESTORE, NONE),
                new Endpoint(
                        "GET",
                        "/tables/orders/items/history?key=%7B%7D&account=" + ABROAD,
                        null,
                        RESTORE,
                        RESTORE_ABROAD),
                new Endpoint("GET", "/", null, null, NONE),
                new Endpoint("GET", "/app.js", null, null, NONE),
                new Endpoint("GET", "/restore-dialog.js", null, null, NONE),
                new Endpoint("GET", "/item-history.js", null, null, NONE),
                new Endpoint("GET", "/activity.js", null, null, NONE),
                new Endpoint("GET", "/links/no-such-token", null, null, NONE),
                new Endpoint("GET", "/actuator/health/readiness", null, null, NONE),
                new Endpoint("GET", "/actuator/prometheus", null, null, NONE),
                new Endpoint("GET", "/v3/api-docs", null, null, NONE)));
        var all = new ArrayList<Endpoint>();
        for (Endpoint e : gets) {
            all.add(e);
            all.add(new Endpoint("HEAD", e.path(), null, e.anyOf(), e.allOf()));
        }
        all.addAll(List.of(
                new Endpoint(
                        "POST",
                        "/restores/preview",
                        "{\"source\":{\"table\":\"orders\"," + missing + "}}",
                        RESTORE,
                        NONE),
                new Endpoint(
                        "POST",
                        "/restores/preview",
                        "{\"source\":{\"account\":\"" + ABROAD + "\",\"table\":"
                                + "\"orders\",\"backupId\":\"b-abroad\"}}",
                        RESTORE,
                        RESTORE_ABROAD),
                new Endpoint("POST", "/tables/orders/exports", "{}", REGISTER, NONE),
                new Endpoint(
                        "POST",
                        "/tables/orders/exports",
                        "{\"s3Uri\":\"s3://customer-exports/x/AWSDynamoDB/" + "e-1/\",\"account\":\"" + ABROAD + "\"}",
                        REGISTER,
                        EnumSet.of(Role.REGISTER_EXPORTS, Role.CROSS_ACCOUNT)),
                new Endpoint(
                        "POST",
                        "/restores",
                        "{\"source\":{\"table\":\"orders\"," + missing + "},\"destination\":{\"type\":\"NEW_TABLE\"}}",
                        RESTORING,
                        RESTORE),
                new Endpoint(
                        "POST",
                        "/restores",
                        "{\"source\":{\"table\":\"orders\"," + missing
                                + "},\"destination\":{\"type\":\"FILE\",\"format\":\"CSV\",\"delivery\":{\"type\":\"DOWNLOAD\"}}}",
                        RESTORING,
                        RESTORE),
                new Endpoint(
                        "POST",
                        "/restores",
                        "{\"source\":{\"table\":\"orders\"," + missing
                                + "},\"destination\":{\"type\":\"EXISTING_TABLE\",\"tableName\":\"orders-copy\"}}",
                        RESTORING,
                        EnumSet.of(Role.RESTORE_OVERWRITE)),
                new Endpoint(
                        "POST",
                        "/restores",
                        "{\"source\":{\"table\":\"orders\"," + missing
                                + "},\"destination\":{\"type\":\"EXISTING_TABLE\",\"tableName\":\"orders\"}}",
                        RESTORING,
                        EnumSet.of(Role.RESTORE_IN_PLACE)),
                new Endpoint(
                        "POST",
                        "/restores",
                        "{\"source\":{\"table\":\"orders\"," + missing + "},\"destination\":{\"type\":\"IN_PLACE\"}}",
                        RESTORING,
                        EnumSet.of(Role.RESTORE_IN_PLACE)),
                new Endpoint(
                        "POST",
                        "/restores",
                        "{\"source\":{\"account\":\"" + ABROAD + "\",\"table\":\"orders\"," + missing
                                + "},\"destination\":{\"type\":\"NEW_TABLE\",\"account\":\"000000000000\"}}",
                        RESTORING,
                        RESTORE_ABROAD),
                new Endpoint("PUT", "/tables/orders/protection", POLICY, PROTECT, NONE),
                new Endpoint(
                        "PUT",
                        "/tables/orders/protection",
                        "{\"account\":\"" + ABROAD + "\"," + POLICY.substring(1),
                        PROTECT,
                        EnumSet.of(Role.PROTECT, Role.CROSS_ACCOUNT)),
                new Endpoint("POST", "/tables/orders/backups", null, PROTECT, NONE),
                new Endpoint("DELETE", "/tables/orders/protection", null, PROTECT, NONE),
                new Endpoint(
                        "DELETE",
                        "/tables/orders/protection?account=" + ABROAD,
                        null,
                        PROTECT,
                        EnumSet.of(Role.PROTECT, Role.CROSS_ACCOUNT)),
                new Endpoint("POST", "/links/no-such-token", "{\"passcode\":\"x\"}", null, NONE),
                new Endpoint("POST", "/restores/no-such-restore/cancel", null, RESTORING, NONE),
                new Endpoint("POST", "/restores/no-such-restore/rollback", null, RESTORING, NONE)));
        return all;
    }

    static Stream<Arguments> everyEndpointAndCaller() {
        var cases = new ArrayList<Arguments>();
        for (Endpoint e : endpoints()) {
            for (Caller c : Caller.values()) {
                if (c != Caller.FLOODER) {
                    cases.add(Arguments.of(e, c));
                }
            }
        }
        return cases.stream();
    }

    @BeforeAll
    static void startStack() throws Exception {
        stack = RestoreStack.infrastructure();
        stack.aws(
                "aws.accounts[0].id=000000000000",
                "aws.accounts[0].regions.us-east-1.dynamodb-endpoint=" + stack.dynalite.endpoint(),
                "aws.accounts[0].regions.us-east-1.import-table=false",
                "aws.accounts[0].regions.us-east-1.native-backups=false",
                "aws.accounts[1].id=" + ABROAD,
                "aws.accounts[1].regions.us-east-1.dynamodb-endpoint=" + stack.dynalite.endpoint(),
                "aws.accounts[1].regions.us-east-1.import-table=false",
                "aws.accounts[1].regions.us-east-1.native-backups=false");
        var keys = new ArrayList<String>(List.of(
                "--api.security.mode=api-key",
                "--api.limits.submission-burst=25",
                "--api.limits.submissions-per-minute=20",
                "--api.exports.allowed-locations=customer-exports"));
        int i = 0;
        for (Caller c : Caller.values()) {
            if (c.roles == null) {
                continue;
            }
            keys.add("--api.security.api-keys[" + i + "].name=" + c.id());
            keys.add("--api.security.api-keys[" + i + "].key=" + c.key());
            keys.add("--api.security.api-keys[" + i + "].roles="
                    + String.join(",", c.roles.stream().map(Role::id).toList()));
            i++;
        }
        stack.startApi(keys.toArray(new String[0]));
        // on Kafka, a request without a valid signature may only read; orders-service, proven by its key, may restore
        stack.startPlanner(
                "--planner.access.unidentified=read",
                "--planner.access.principals.orders-service=restore",
                "--planner.access.keys.orders-service=" + ORDERS_SERVICE_KEY);
        stack.startWriter();
        stack.startExporter();
        status = stack.followStatus();
        requestDeadLetters = TopicRecorder.follow(stack.kafka.bootstrapServers(), "restore.requests.DLT");
        producer = stack.stringProducer();
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders");
        BackupFixtures.writeBackup(
                stack,
                source,
                "b-auth",
                new RandomItems(5, BackupFixtures.SHAPE),
                200,
                100,
                -1,
                Instant.now().plus(Duration.ofDays(1)));
        BackupFixtures.writeBackup(
                stack,
                ABROAD,
                source,
                "b-abroad",
                new RandomItems(6, BackupFixtures.SHAPE),
                50,
                100,
                -1,
                Instant.now().plus(Duration.ofDays(1)));
        BackupFixtures.createSourceTable(stack.dynalite.client(), "orders-copy");
    }

    @AfterAll
    static void stopStack() {
        if (producer != null) {
            producer.close();
        }
        if (status != null) {
            status.close();
        }
        if (requestDeadLetters != null) {
            requestDeadLetters.close();
        }
        stack.close();
    }

    @ParameterizedTest(name = "{0} as {1}")
    @MethodSource("everyEndpointAndCaller")
    void answersEachEndpointByTheCallersRoles(Endpoint endpoint, Caller caller) throws Exception {
        // When the caller calls the endpoint
        var builder = HttpRequest.newBuilder(stack.apiUri(endpoint.path())).timeout(Duration.ofSeconds(20));
        if (caller.roles != null) {
            builder.header("X-Api-Key", caller.key());
        }
        builder.method(
                endpoint.method(),
                endpoint.body() == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(endpoint.body()));
        if (endpoint.body() != null) {
            builder.header("Content-Type", "application/json");
        }
        var response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
        String body;
        try (var in = response.body()) {
            body = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
        }
        boolean head = endpoint.method().equals("HEAD");

        // Then a public endpoint or a caller holding the roles gets through; nobody gets 401, others 403
        if (endpoint.anyOf() != null && caller.roles == null) {
            assertThat(response.statusCode()).as(body).isEqualTo(401);
            if (!head) {
                assertThat(response.headers().firstValue("Content-Type").orElse(""))
                        .startsWith("application/problem+json");
                assertThat(JSON.readTree(body).get("detail").asString()).contains("X-Api-Key");
            }
        } else if (endpoint.allows(caller.roles)) {
            assertThat(response.statusCode()).as(body).isNotIn(401, 403).isLessThan(500);
        } else {
            assertThat(response.statusCode()).as(body).isEqualTo(403);
            if (!head) {
                JsonNode problem = JSON.readTree(body);
                assertThat(problem.get("code").asString()).isEqualTo("FORBIDDEN");
                assertThat(problem.get("detail").asString())
                        .contains("needs the role")
                        .contains(caller.id());
            }
        }
    }

    @Test
    void refusesAnUnknownKeyAndSaysSo() throws Exception {
        var response = HTTP.send(
                HttpRequest.newBuilder(stack.apiUri("/restores"))
                        .header("X-Api-Key", "reader-key-0123456788")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(response.body()).get("detail").asString()).contains("not known");
    }

    @Test
    void aRestoreCallerCannotPreviewAnotherAccountsBackup() throws Exception {
        // the longest time limit a preview allows: this is about who may read, and the default 2 s read only
        // 12 of the 50 records once beside the rest of the build
        String body = "{\"source\":{\"account\":\"" + ABROAD
                + "\",\"table\":\"orders\",\"backupId\":\"b-abroad\"},\"timeLimitMs\":30000}";

        // When a caller with restore alone previews the backup of another account, and then one with cross-account
        var refused = post(Caller.RESTORER, "/restores/preview", body);
        var allowed = post(Caller.RESTORER_ABROAD, "/restores/preview", body);

        // Then the first is refused naming cross-account, and the second sees the records
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
        assertThat(refused.body()).contains("cross-account").doesNotContain("\"records\"");
        assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
        assertThat(JSON.readTree(allowed.body()).get("count").asInt()).isEqualTo(50);
    }

    @Test
    void aPreviewCannotNameATableOutsideTheVaultsLayout() throws Exception {
        var escaping = post(
                Caller.ADMIN,
                "/restores/preview",
                "{\"source\":{\"table\":\"../000000000000/us-east-1/" + "orders\",\"backupId\":\"b-auth\"}}");
        assertThat(escaping.statusCode()).as(escaping.body()).isEqualTo(400);
        assertThat(escaping.body()).contains("/source/table");
    }

    @Test
    void aRestoreCallerCannotDownloadAnotherCallersFileNorOneSentByEmailLink() throws Exception {
        // Given a file the admin exported for download, and one sent by email link
        var downloadable = post(Caller.ADMIN, "/restores", """
                {"restoreId": "auth-file", "source": {"table": "orders", "backupId": "b-auth"},
                 "destination": {"type": "FILE", "format": "CSV", "delivery": {"type": "DOWNLOAD"}}}""");
        var mailed = post(Caller.ADMIN, "/restores", """
                {"restoreId": "auth-mailed", "source": {"table": "orders", "backupId": "b-auth"},
                 "destination": {"type": "FILE", "format": "CSV",
                                 "delivery": {"type": "EMAIL", "recipients": ["ann@example.com"]}}}""");
        assertThat(downloadable.statusCode()).as(downloadable.body()).isEqualTo(202);
        assertThat(mailed.statusCode()).as(mailed.body()).isEqualTo(202);
        awaitEnd("auth-file");
        awaitEnd("auth-mailed");

        // When another caller with restore fetches it (GET and HEAD), and the admin fetches both
        var other = get(Caller.RESTORER_ABROAD, "/restores/auth-file/download");
        var otherHead = HTTP.send(
                HttpRequest.newBuilder(stack.apiUri("/restores/auth-file/download"))
                        .header("X-Api-Key", Caller.READER.key())
                        .method("HEAD", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        var own = get(Caller.ADMIN, "/restores/auth-file/download");
        var viaLinkOnly = get(Caller.ADMIN, "/restores/auth-mailed/download");

        // Then only the admin gets its download; the mailed file opens only through its link
        assertThat(other.statusCode()).as(other.body()).isEqualTo(403);
        assertThat(other.body()).contains("only to the caller who asked for it").contains("'admin'");
        assertThat(otherHead.statusCode()).isEqualTo(403);
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        assertThat(own.body()).startsWith("pk (S),sk (N)");
        assertThat(viaLinkOnly.statusCode()).as(viaLinkOnly.body()).isEqualTo(403);
        assertThat(viaLinkOnly.body()).contains("email link");
    }

    @Test
    void overwritingTheSourceTableAsAnExistingTableNeedsRestoreInPlace() throws Exception {
        var refused = post(Caller.OVERWRITER, "/restores", """
                {"source": {"table": "orders", "backupId": "b-auth"},
                 "destination": {"type": "EXISTING_TABLE", "tableName": "orders"}}""");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
        assertThat(refused.body()).contains("restore-in-place");
    }

    @Test
    void aRestoreOfAnotherAccountIsHiddenFromReadersWithoutCrossAccount() throws Exception {
        // Given a restore from the other account
        var started = post(Caller.ADMIN, "/restores", """
                {"restoreId": "auth-abroad", "source": {"account": "111111111111", "table": "orders",
                 "backupId": "b-abroad"}, "destination": {"type": "NEW_TABLE", "tableName": "orders-from-abroad"}}""");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);

        // Then a reader without cross-account neither lists it nor reads it, one with cross-account does both
        assertThat(get(Caller.READER, "/restores/auth-abroad").statusCode()).isEqualTo(403);
        assertThat(get(Caller.READER, "/restores/auth-abroad/events").statusCode())
                .isEqualTo(403);
        assertThat(get(Caller.READER, "/restores").body()).doesNotContain("auth-abroad");
        assertThat(get(Caller.READER_ABROAD, "/restores/auth-abroad").statusCode())
                .isEqualTo(200);
        assertThat(get(Caller.READER_ABROAD, "/restores").body()).contains("auth-abroad");
    }

    @Test
    void namesTheAuthenticatedCallerAsTheRequesterAndLetsOnlyTheRightRolesCancel() throws Exception {
        // Given an in-place restore started by the admin, whose body names nobody on whose behalf it acts
        var started = post(Caller.ADMIN, "/restores", """
                {"restoreId": "auth-inplace",
                 "source": {"table": "orders", "backupId": "b-auth"}, "destination": {"type": "IN_PLACE"}}""");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);

        // Then the request on Kafka names the admin as requester, and the planner records the admin as its principal
        JsonNode accepted = await().atMost(Duration.ofSeconds(30))
                .until(() -> status.last("auth-inplace", "RestoreAccepted"), e -> e != null);
        assertThat(accepted.get("request").get("requestedBy").asString()).isEqualTo("admin");
        assertThat(accepted.get("principal").asString()).isEqualTo("admin");

        // When a caller who may restore only into new tables cancels it, it is refused naming the role
        var refused = post(Caller.RESTORER, "/restores/auth-inplace/cancel", null);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
        assertThat(refused.body()).contains("restore-in-place");

        // and a caller who may restore in place is let through (202, or 409 once it ended)
        var allowed = post(Caller.IN_PLACE, "/restores/auth-inplace/cancel", null);
        assertThat(allowed.statusCode()).as(allowed.body()).isIn(202, 409);
    }

    @Test
    void aRestoreIdThatIsNotOneIsRefusedInEveryUrl() throws Exception {
        for (String path : List.of(
                "/restores/-dash",
                "/restores/a..b%2F/events",
                "/restores/x%20y/download",
                "/restores/.hidden/cancel",
                "/restores/" + "r".repeat(65) + "/rollback")) {
            var response = path.endsWith("cancel") || path.endsWith("rollback")
                    ? post(Caller.ADMIN, path, null)
                    : get(Caller.ADMIN, path);
            assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(400);
        }
        assertThat(get(Caller.ADMIN, "/restores/-dash").body())
                .contains("INVALID_RESTORE_ID")
                .contains("letters");
    }

    @Test
    void authorizesKafkaRequestsByTheProvenPrincipalWithTheSameRules() throws Exception {
        // When requests are published with and without a (signed) principal, for a new and for an existing table
        publish("kafka-anon", null, null, "NEW_TABLE\",\"tableName\":\"orders-anon");
        publish(
                "kafka-orders-new",
                "orders-service",
                ORDERS_SERVICE_KEY,
                "NEW_TABLE\",\"tableName\":\"orders-from-kafka");
        publish(
                "kafka-orders-overwrite",
                "orders-service",
                ORDERS_SERVICE_KEY,
                "EXISTING_TABLE\",\"tableName\":\"orders-copy");
        publish("kafka-stranger", "stranger", null, "NEW_TABLE\",\"tableName\":\"orders-stranger");

        // Then only the proven principal holding restore gets its new table; the others are rejected FORBIDDEN with why
        JsonNode anon = awaitEnd("kafka-anon");
        assertThat(anon.get("code").asString()).isEqualTo("FORBIDDEN");
        assertThat(anon.get("reason").asString())
                .contains(Access.PRINCIPAL_HEADER)
                .contains("restore");
        assertThat(awaitEnd("kafka-orders-new").get("type").asString()).isEqualTo("RestoreCompleted");
        assertThat(status.last("kafka-orders-new", "RestoreAccepted")
                        .get("principal")
                        .asString())
                .isEqualTo("orders-service");
        JsonNode overwrite = awaitEnd("kafka-orders-overwrite");
        assertThat(overwrite.get("code").asString()).isEqualTo("FORBIDDEN");
        assertThat(overwrite.get("reason").asString())
                .contains("restore-overwrite")
                .contains("orders-service")
                .contains("planner.access.principals");
        assertThat(awaitEnd("kafka-stranger").get("code").asString()).isEqualTo("FORBIDDEN");
        assertThat(stack.dynalite.client().listTables().tableNames())
                .contains("orders-from-kafka")
                .doesNotContain("orders-anon", "orders-stranger");
    }

    @Test
    void aProducerThatClaimsToBeRestoreApiGetsNoRoles() throws Exception {
        // When a producer allowed only to write the topic claims restore-api's principal, without its key,
        // with a key of its own, and copies a signature of orders-service onto another request
        publish("forged-none", "restore-api", null, "IN_PLACE");
        publish("forged-key", "restore-api", "a-key-that-is-not-restore-apis-0123456789", "IN_PLACE");
        String copied = MessageSignature.sign(
                ORDERS_SERVICE_KEY, "restore.requests", "orders-service", null, "{}".getBytes(StandardCharsets.UTF_8));
        var record = new ProducerRecord<String, String>(
                "restore.requests", "forged-copy", request("forged-copy", "IN_PLACE"));
        record.headers().add(Access.PRINCIPAL_HEADER, "orders-service".getBytes(StandardCharsets.UTF_8));
        record.headers().add(MessageSignature.HEADER, copied.getBytes(StandardCharsets.UTF_8));
        producer.send(record).get();

        // Then each is unidentified, refused FORBIDDEN saying it is unproven, and goes to the DLT; nothing is restored
        for (String id : List.of("forged-none", "forged-key", "forged-copy")) {
            JsonNode end = awaitEnd(id);
            assertThat(end.get("code").asString()).as(id).isEqualTo("FORBIDDEN");
            assertThat(end.get("reason").asString()).as(id).contains("without a valid " + MessageSignature.HEADER);
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> requestDeadLetters.all().stream()
                                .filter(e -> e.key() != null && e.key().startsWith("forged-"))
                                .count()
                        >= 3);
    }

    @Test
    void aSignedPrincipalCannotBorrowTheCallerHeaderOfRestoreApi() throws Exception {
        // When orders-service signs a request that names a caller, as only restore-api may
        var value = request("borrowed-caller", "NEW_TABLE\",\"tableName\":\"orders-borrowed");
        var record = new ProducerRecord<String, String>("restore.requests", "borrowed-caller", value);
        record.headers().add(Access.PRINCIPAL_HEADER, "orders-service".getBytes(StandardCharsets.UTF_8));
        record.headers().add(MessageSignature.CALLER_HEADER, "admin".getBytes(StandardCharsets.UTF_8));
        record.headers()
                .add(
                        MessageSignature.HEADER,
                        MessageSignature.sign(
                                        ORDERS_SERVICE_KEY,
                                        "restore.requests",
                                        "orders-service",
                                        "admin",
                                        value.getBytes(StandardCharsets.UTF_8))
                                .getBytes(StandardCharsets.UTF_8));
        producer.send(record).get();

        // Then the restore is orders-service's own, not the admin's
        JsonNode accepted = await().atMost(Duration.ofSeconds(30))
                .until(() -> status.last("borrowed-caller", "RestoreAccepted"), e -> e != null);
        assertThat(accepted.get("principal").asString()).isEqualTo("orders-service");
    }

    @Test
    void aMessageCannotChooseItsRestoreIdInAHeader() throws Exception {
        // When a request without a restore id carries a restore id header of a path outside the staging prefix
        var record = new ProducerRecord<String, String>(
                "restore.requests",
                null,
                "{\"source\":{\"table\":\"orders\","
                        + "\"backupId\":\"b-auth\"},\"destination\":{\"type\":\"NEW_TABLE\",\"tableName\":\"orders-headerless\"},"
                        + "\"requestedBy\":\"header-test\"}");
        record.headers().add("dynarestore_restore-id", "../../_journal/victim".getBytes(StandardCharsets.UTF_8));
        sign(record, "orders-service", ORDERS_SERVICE_KEY);
        producer.send(record).get();

        // Then the restore runs under an id derived from its position, and nothing ever names the header's id
        JsonNode accepted = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> status.all().stream()
                                .filter(e -> "RestoreAccepted".equals(e.type())
                                        && e.json()
                                                .path("request")
                                                .path("requestedBy")
                                                .asString("")
                                                .equals("header-test"))
                                .map(TopicRecorder.Entry::json)
                                .findFirst()
                                .orElse(null),
                        e -> e != null);
        assertThat(accepted.get("restoreId").asString()).matches("[0-9a-f-]{36}");
        assertThat(status.all()).noneSatisfy(e -> assertThat(e.raw()).contains("_journal/victim"));
    }

    @Test
    void aCallerThatFloodsSubmissionsIsToldWhenToComeBack() throws Exception {
        // When one caller submits far more restores than its burst
        var answers = new ArrayList<HttpResponse<String>>();
        for (int n = 0; n < 40; n++) {
            answers.add(post(
                    Caller.FLOODER,
                    "/restores",
                    "{\"source\":{\"table\":\"orders\",\"backupId\":"
                            + "\"no-such-backup\"},\"destination\":{\"type\":\"NEW_TABLE\"}}"));
        }

        // Then past its burst it gets 429 with Retry-After and the reason, while other callers are not held up
        var limited = answers.stream().filter(r -> r.statusCode() == 429).toList();
        assertThat(limited).hasSizeGreaterThanOrEqualTo(10);
        assertThat(limited.get(0).headers().firstValue("Retry-After"))
                .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
        assertThat(limited.get(0).body()).contains("TOO_MANY_REQUESTS").contains("flooder");
        assertThat(answers.get(0).statusCode()).isEqualTo(422);
        assertThat(get(Caller.RESTORER_ABROAD, "/restores").statusCode()).isEqualTo(403);
        assertThat(get(Caller.READER, "/restores").statusCode()).isEqualTo(200);
    }

    @Test
    void oneCallerCannotTakeEveryEventStream() throws Exception {
        // Given a restore whose events never end (an event of a restore nobody accepted)
        var event = io.dynarestore.contracts.status.SegmentProgressed.of("sse-hold", 0, 1, 1, "w");
        try (var publisher = new io.dynarestore.core.kafka.EventPublisher(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers()), "test")) {
            publisher.status(event);
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> get(Caller.READER, "/restores/sse-hold").statusCode() == 200);

        // When one caller opens more streams than its share
        var open = new ArrayList<java.util.concurrent.CompletableFuture<HttpResponse<java.io.InputStream>>>();
        for (int n = 0; n < 4; n++) {
            open.add(HTTP.sendAsync(
                    HttpRequest.newBuilder(stack.apiUri("/restores/sse-hold/events"))
                            .header("X-Api-Key", Caller.READER.key())
                            .build(),
                    HttpResponse.BodyHandlers.ofInputStream()));
        }
        for (var f : open) {
            assertThat(f.get(20, java.util.concurrent.TimeUnit.SECONDS).statusCode())
                    .isEqualTo(200);
        }
        var fifth = get(Caller.READER, "/restores/sse-hold/events");
        var otherCaller = HTTP.send(
                HttpRequest.newBuilder(stack.apiUri("/restores/sse-hold/events"))
                        .header("X-Api-Key", Caller.ADMIN.key())
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());

        // Then the fifth is refused with 429 and Retry-After, and another caller still gets its stream
        assertThat(fifth.statusCode()).as(fifth.body()).isEqualTo(429);
        assertThat(fifth.headers().firstValue("Retry-After")).isPresent();
        assertThat(otherCaller.statusCode()).isEqualTo(200);
        otherCaller.body().close();
        for (var f : open) {
            f.get().body().close();
        }
    }

    static String request(String restoreId, String destination) {
        return "{\"restoreId\":\"" + restoreId + "\",\"source\":{\"table\":\"orders\",\"backupId\":\"b-auth\"},"
                + "\"destination\":{\"type\":\"" + destination + "\"}}";
    }

    /** Publishes a request with {@code principal} in its header, signed with {@code key} when one is given. */
    static void publish(String restoreId, String principal, String key, String destination) throws Exception {
        var record = new ProducerRecord<String, String>("restore.requests", restoreId, request(restoreId, destination));
        if (principal != null) {
            if (key != null) {
                sign(record, principal, key);
            } else {
                record.headers().add(Access.PRINCIPAL_HEADER, principal.getBytes(StandardCharsets.UTF_8));
            }
        }
        producer.send(record).get();
    }

    static void sign(ProducerRecord<String, String> record, String principal, String key) {
        record.headers().add(Access.PRINCIPAL_HEADER, principal.getBytes(StandardCharsets.UTF_8));
        record.headers()
                .add(
                        MessageSignature.HEADER,
                        MessageSignature.sign(
                                        key,
                                        record.topic(),
                                        principal,
                                        null,
                                        record.value().getBytes(StandardCharsets.UTF_8))
                                .getBytes(StandardCharsets.UTF_8));
    }

    static JsonNode awaitEnd(String restoreId) {
        return await().atMost(Duration.ofMinutes(1))
                .until(
                        () -> Stream.of("RestoreCompleted", "RestoreRejected", "RestoreFailed")
                                .map(t -> status.last(restoreId, t))
                                .filter(e -> e != null)
                                .findFirst()
                                .orElse(null),
                        e -> e != null);
    }

    static HttpResponse<String> get(Caller caller, String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(stack.apiUri(path))
                        .timeout(Duration.ofSeconds(30))
                        .header("X-Api-Key", caller.key())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(Caller caller, String path, String body) throws Exception {
        var builder = HttpRequest.newBuilder(stack.apiUri(path))
                .timeout(Duration.ofSeconds(30))
                .header("X-Api-Key", caller.key());
        if (body != null) {
            builder.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        } else {
            builder.POST(HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }
}
