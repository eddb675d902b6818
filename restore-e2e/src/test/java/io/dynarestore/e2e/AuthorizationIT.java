package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.access.Role;
import io.dynarestore.testkit.RandomItems;
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
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every endpoint of restore-api against every role, with API keys (the local mode), and the
 * same rule on Kafka: the planner authorizes requests by the principal header.
 */
class AuthorizationIT {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static RestoreStack stack;
    static StatusLog status;
    static KafkaProducer<String, String> producer;

    /** The callers: a key per role, one that adds cross-account to restore, one with every role, and none. */
    enum Caller {
        NOBODY(null),
        READER(EnumSet.of(Role.READ)),
        RESTORER(EnumSet.of(Role.RESTORE)),
        IN_PLACE(EnumSet.of(Role.RESTORE_IN_PLACE)),
        OVERWRITER(EnumSet.of(Role.RESTORE_OVERWRITE)),
        CROSS_ACCOUNT_ONLY(EnumSet.of(Role.CROSS_ACCOUNT)),
        RESTORER_ABROAD(EnumSet.of(Role.RESTORE, Role.CROSS_ACCOUNT)),
        ADMIN(EnumSet.allOf(Role.class));

        final Set<Role> roles;

        Caller(Set<Role> roles) {
            this.roles = roles;
        }

        String key() {
            return name().toLowerCase(java.util.Locale.ROOT) + "-key-0123456789";
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
            return method + " " + path + (body == null ? "" : " " + body.substring(0, Math.min(60, body.length())));
        }
    }

    static final Set<Role> READ = EnumSet.of(Role.READ);
    static final Set<Role> RESTORE = EnumSet.of(Role.RESTORE);
    static final Set<Role> RESTORING = EnumSet.of(Role.RESTORE, Role.RESTORE_IN_PLACE, Role.RESTORE_OVERWRITE);
    static final Set<Role> NONE = EnumSet.noneOf(Role.class);

    static List<Endpoint> endpoints() {
        String missing = "\"backupId\":\"no-such-backup\"";
        return List.of(
                new Endpoint("GET", "/tables", null, READ, NONE),
                new Endpoint("GET", "/tables/orders/backups", null, READ, NONE),
                new Endpoint("GET", "/tables/orders/pitr-windows", null, READ, NONE),
                new Endpoint("GET", "/tables/orders/calendar?month=2026-11", null, READ, NONE),
                new Endpoint("GET", "/tables/orders/exports", null, READ, NONE),
                new Endpoint("GET", "/accounts", null, READ, NONE),
                new Endpoint("GET", "/restores", null, READ, NONE),
                new Endpoint("GET", "/restores/no-such-restore", null, READ, NONE),
                new Endpoint("GET", "/restores/no-such-restore/events", null, READ, NONE),
                new Endpoint("GET", "/restores/no-such-restore/download", null, RESTORE, NONE),
                new Endpoint("POST", "/restores/preview", "{\"source\":{\"table\":\"orders\"," + missing + "}}",
                        RESTORE, NONE),
                new Endpoint("POST", "/tables/orders/exports", "{}", RESTORE, NONE),
                new Endpoint("POST", "/restores", "{\"source\":{\"table\":\"orders\"," + missing
                        + "},\"destination\":{\"type\":\"NEW_TABLE\"}}", RESTORING, RESTORE),
                new Endpoint("POST", "/restores", "{\"source\":{\"table\":\"orders\"," + missing
                        + "},\"destination\":{\"type\":\"FILE\",\"format\":\"CSV\",\"delivery\":{\"type\":\"DOWNLOAD\"}}}",
                        RESTORING, RESTORE),
                new Endpoint("POST", "/restores", "{\"source\":{\"table\":\"orders\"," + missing
                        + "},\"destination\":{\"type\":\"EXISTING_TABLE\",\"tableName\":\"orders-copy\"}}", RESTORING,
                        EnumSet.of(Role.RESTORE_OVERWRITE)),
                new Endpoint("POST", "/restores", "{\"source\":{\"table\":\"orders\"," + missing
                        + "},\"destination\":{\"type\":\"IN_PLACE\"}}", RESTORING, EnumSet.of(Role.RESTORE_IN_PLACE)),
                new Endpoint("POST", "/restores", "{\"source\":{\"account\":\"111111111111\",\"table\":\"orders\","
                        + missing + "},\"destination\":{\"type\":\"NEW_TABLE\",\"account\":\"000000000000\"}}",
                        RESTORING, EnumSet.of(Role.RESTORE, Role.CROSS_ACCOUNT)),
                new Endpoint("POST", "/restores/no-such-restore/cancel", null, RESTORING, NONE),
                new Endpoint("POST", "/restores/no-such-restore/rollback", null, RESTORING, NONE),
                new Endpoint("GET", "/", null, null, NONE),
                new Endpoint("GET", "/app.js", null, null, NONE),
                new Endpoint("GET", "/links/no-such-token", null, null, NONE),
                new Endpoint("GET", "/actuator/health/readiness", null, null, NONE),
                new Endpoint("GET", "/actuator/prometheus", null, null, NONE),
                new Endpoint("GET", "/v3/api-docs", null, null, NONE));
    }

    static Stream<Arguments> everyEndpointAndCaller() {
        var cases = new ArrayList<Arguments>();
        for (Endpoint e : endpoints()) {
            for (Caller c : Caller.values()) {
                cases.add(Arguments.of(e, c));
            }
        }
        return cases.stream();
    }

    @BeforeAll
    static void startStack() throws Exception {
        stack = RestoreStack.infrastructure();
        var keys = new ArrayList<String>(List.of("--api.security.mode=api-key"));
        int i = 0;
        for (Caller c : Caller.values()) {
            if (c.roles == null) {
                continue;
            }
            keys.add("--api.security.api-keys[" + i + "].name=" + c.name().toLowerCase(java.util.Locale.ROOT));
            keys.add("--api.security.api-keys[" + i + "].key=" + c.key());
            keys.add("--api.security.api-keys[" + i + "].roles=" + String.join(",",
                    c.roles.stream().map(Role::id).toList()));
            i++;
        }
        stack.startApi(keys.toArray(new String[0]));
        // on Kafka, a request without the principal header may only read; orders-service may restore
        stack.startPlanner("--planner.access.unidentified=read", "--planner.access.principals.orders-service=restore");
        stack.startWriter();
        status = StatusLog.status(stack);
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders");
        BackupFixtures.writeBackup(stack, source, "b-auth", new RandomItems(5, BackupFixtures.SHAPE), 200, 100, -1,
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
        builder.method(endpoint.method(), endpoint.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(endpoint.body()));
        if (endpoint.body() != null) {
            builder.header("Content-Type", "application/json");
        }
        var response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
        String body;
        try (var in = response.body()) {
            body = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
        }

        // Then a public endpoint or a caller holding the roles gets through; nobody gets 401, others 403
        if (endpoint.anyOf() != null && caller.roles == null) {
            assertThat(response.statusCode()).as(body).isEqualTo(401);
            assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
            assertThat(JSON.readTree(body).get("detail").asString()).contains("X-Api-Key");
        } else if (endpoint.allows(caller.roles)) {
            assertThat(response.statusCode()).as(body).isNotIn(401, 403).isLessThan(500);
        } else {
            assertThat(response.statusCode()).as(body).isEqualTo(403);
            JsonNode problem = JSON.readTree(body);
            assertThat(problem.get("code").asString()).isEqualTo("FORBIDDEN");
            assertThat(problem.get("detail").asString()).contains("needs the role")
                    .contains(caller.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    @Test
    void refusesAnUnknownKeyAndSaysSo() throws Exception {
        var response = HTTP.send(HttpRequest.newBuilder(stack.apiUri("/restores")).header("X-Api-Key",
                "reader-key-0123456788").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(response.body()).get("detail").asString()).contains("not known");
    }

    @Test
    void namesTheAuthenticatedCallerAsTheRequesterAndLetsOnlyTheRightRolesCancel() throws Exception {
        // Given an in-place restore started by the admin, whose body names nobody on whose behalf it acts
        var started = post(Caller.ADMIN, "/restores", """
                {"restoreId": "auth-inplace",
                 "source": {"table": "orders", "backupId": "b-auth"}, "destination": {"type": "IN_PLACE"}}""");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);

        // Then the request on Kafka names the admin as requester, and the planner accepted restore-api's principal
        JsonNode accepted = await().atMost(Duration.ofSeconds(30)).until(() -> status.last("auth-inplace",
                "RestoreAccepted"), e -> e != null);
        assertThat(accepted.get("request").get("requestedBy").asString()).isEqualTo("admin");

        // When a caller who may restore only into new tables cancels it, it is refused naming the role
        var refused = post(Caller.RESTORER, "/restores/auth-inplace/cancel", null);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
        assertThat(refused.body()).contains("restore-in-place");

        // and a caller who may restore in place is let through (202, or 409 once it ended)
        var allowed = post(Caller.IN_PLACE, "/restores/auth-inplace/cancel", null);
        assertThat(allowed.statusCode()).as(allowed.body()).isIn(202, 409);
    }

    @Test
    void authorizesKafkaRequestsByThePrincipalHeaderWithTheSameRules() throws Exception {
        // When requests are published with and without a principal, for a new and for an existing table
        publish("kafka-anon", null, "NEW_TABLE\",\"tableName\":\"orders-anon");
        publish("kafka-orders-new", "orders-service", "NEW_TABLE\",\"tableName\":\"orders-from-kafka");
        publish("kafka-orders-overwrite", "orders-service", "EXISTING_TABLE\",\"tableName\":\"orders-copy");
        publish("kafka-stranger", "stranger", "NEW_TABLE\",\"tableName\":\"orders-stranger");

        // Then only the principal holding restore gets its new table; the others are rejected FORBIDDEN with why
        JsonNode anon = awaitEnd("kafka-anon");
        assertThat(anon.get("code").asString()).isEqualTo("FORBIDDEN");
        assertThat(anon.get("reason").asString()).contains(Access.PRINCIPAL_HEADER).contains("restore");
        assertThat(awaitEnd("kafka-orders-new").get("type").asString()).isEqualTo("RestoreCompleted");
        JsonNode overwrite = awaitEnd("kafka-orders-overwrite");
        assertThat(overwrite.get("code").asString()).isEqualTo("FORBIDDEN");
        assertThat(overwrite.get("reason").asString()).contains("restore-overwrite").contains("orders-service")
                .contains("planner.access.principals");
        assertThat(awaitEnd("kafka-stranger").get("code").asString()).isEqualTo("FORBIDDEN");
        assertThat(stack.dynalite.client().listTables().tableNames()).contains("orders-from-kafka")
                .doesNotContain("orders-anon", "orders-stranger");
    }

    static void publish(String restoreId, String principal, String destination) throws Exception {
        var record = new ProducerRecord<String, String>("restore.requests", restoreId, "{\"restoreId\":\"" + restoreId
                + "\",\"source\":{\"table\":\"orders\",\"backupId\":\"b-auth\"},\"destination\":{\"type\":\""
                + destination + "\"}}");
        if (principal != null) {
            record.headers().add(Access.PRINCIPAL_HEADER, principal.getBytes(StandardCharsets.UTF_8));
        }
        producer.send(record).get();
    }

    static JsonNode awaitEnd(String restoreId) {
        return await().atMost(Duration.ofMinutes(1)).until(() -> Stream.of("RestoreCompleted", "RestoreRejected",
                "RestoreFailed").map(t -> status.last(restoreId, t)).filter(e -> e != null).findFirst().orElse(null),
                e -> e != null);
    }

    static HttpResponse<String> post(Caller caller, String path, String body) throws Exception {
        var builder = HttpRequest.newBuilder(stack.apiUri(path)).timeout(Duration.ofSeconds(30))
                .header("X-Api-Key", caller.key());
        if (body != null) {
            builder.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        } else {
            builder.POST(HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

}
