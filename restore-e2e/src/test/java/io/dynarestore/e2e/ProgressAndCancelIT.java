package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Select;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Following restores: Server-Sent Events and a raw Kafka consumer see the same ordered events;
 * the tasks list pages; a cancel stops the writers within seconds, puts capacity back and says
 * what stayed. DynamoDB is metered by a capacity proxy so that restores take seconds, not
 * milliseconds.
 */
class ProgressAndCancelIT {

    static final int ITEMS = 3_000;
    static final JsonMapper JSON = JsonMapper.builder().build();
    static RestoreStack stack;
    static CapacityProxy proxy;
    static TopicRecorder status;
    static RandomItems items = new RandomItems(808, BackupFixtures.SHAPE);
    static org.springframework.context.ConfigurableApplicationContext planner;
    static org.springframework.context.ConfigurableApplicationContext writer;

    @BeforeAll
    static void startStack() throws Exception {
        stack = RestoreStack.infrastructure();
        proxy = CapacityProxy.inFrontOf(stack.dynalite.endpoint())
                .burstSeconds(1)
                .limit("events-copy", 600)
                .limit("ledger-copy", 40)
                .limit("metered-copy", 300);
        stack.throughCapacityProxy(proxy);
        planner = stack.startPlanner("--planner.progress-interval=300ms", "--planner.capacity.write-units=40");
        writer = stack.startWriter("--writer.progress-interval=300ms");
        stack.startApi();
        status = stack.followStatus();
        var source = CapacityIT.createProvisioned(stack.dynalite.client(), "ledger");
        BackupFixtures.writeItems(stack, source, "b-prog", items.items(ITEMS), 250, List.of(), null, null);
        awaitWritersSettled();
    }

    /**
     * Waits until the writer's consumers have settled their (cooperative, several-round) start-up
     * rebalance, so that the counts these tests check exactly are not disturbed by segments moving.
     */
    static void awaitWritersSettled() throws Exception {
        try (var admin = org.apache.kafka.clients.admin.Admin.create(java.util.Map.of(
                org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.kafka.bootstrapServers()))) {
            int partitions = admin.describeTopics(List.of("restore.segments"))
                    .allTopicNames()
                    .get()
                    .get("restore.segments")
                    .partitions()
                    .size();
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        var group = admin.describeConsumerGroups(List.of("item-writer"))
                                .all()
                                .get()
                                .get("item-writer");
                        return group.groupState() == org.apache.kafka.common.GroupState.STABLE
                                && group.members().stream()
                                                .mapToInt(m -> m.assignment().topicPartitions().stream()
                                                        .filter(tp -> tp.topic().equals("restore.segments"))
                                                        .toList()
                                                        .size())
                                                .sum()
                                        == partitions;
                    });
        }
    }

    @AfterAll
    static void stopStack() {
        status.close();
        stack.close();
        proxy.close();
    }

    /** One Server-Sent Event. */
    record Sse(String id, String event, JsonNode data) {}

    /** Reads a restore's event stream to its end. */
    static List<Sse> stream(String restoreId, String lastEventId) throws Exception {
        var request = HttpRequest.newBuilder(stack.apiUri("/restores/" + restoreId + "/events"))
                .header(LocalApi.HEADER, LocalApi.KEY)
                .header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<java.util.stream.Stream<String>> response =
                HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        var events = new ArrayList<Sse>();
        String id = null;
        String event = null;
        var data = new StringBuilder();
        for (String line : (Iterable<String>) response.body()::iterator) {
            if (line.isEmpty()) {
                if (data.length() > 0) {
                    events.add(new Sse(id, event, JSON.readTree(data.toString())));
                }
                id = null;
                event = null;
                data.setLength(0);
            } else if (line.startsWith("id:")) {
                id = line.substring(3).trim();
            } else if (line.startsWith("event:")) {
                event = line.substring(6).trim();
            } else if (line.startsWith("data:")) {
                data.append(line.substring(5).trim());
            }
        }
        return events;
    }

    @Test
    void serverSentEventsShowTheSameOrderedEventsAsKafkaWithGrowingProgressEndingInCompleted() throws Exception {
        // Given a restore that takes some seconds, followed on SSE from its start
        startIntoOnDemandTable("followed", "events-copy");
        CompletableFuture<List<Sse>> live = CompletableFuture.supplyAsync(() -> {
            try {
                return stream("followed", null);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        // When it runs to its end
        List<Sse> sse;
        try {
            sse = live.get(2, TimeUnit.MINUTES);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no end of stream; on Kafka: " + status.typesOf("followed"), e);
        }

        // Then the stream ends with RestoreCompleted, and holds what a raw Kafka consumer reads, in the same order
        assertThat(sse.get(sse.size() - 1).event()).isEqualTo("RestoreCompleted");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> status.typesOf("followed").contains("RestoreCompleted"));
        List<String> kafka = status.of("followed").stream()
                .map(e -> e.json().get("eventId").asString())
                .toList();
        int end = kafka.indexOf(sse.get(sse.size() - 1).data().get("eventId").asString());
        assertThat(sse.stream().map(e -> e.data().get("eventId").asString()).toList())
                .isEqualTo(kafka.subList(0, end + 1));
        assertThat(sse)
                .allSatisfy(e ->
                        assertThat(e.event()).isEqualTo(e.data().get("type").asString()));

        // and the restore's progress grows, event after event, to every item
        List<JsonNode> progress = sse.stream()
                .filter(e -> e.event().equals("RestoreProgressed"))
                .map(Sse::data)
                .toList();
        assertThat(progress).as("RestoreProgressed events").hasSizeGreaterThanOrEqualTo(2);
        long previous = 0;
        for (JsonNode p : progress) {
            assertThat(p.get("itemsWritten").asLong()).isGreaterThan(previous).isLessThanOrEqualTo(ITEMS);
            assertThat(p.get("segments").asInt()).isPositive();
            assertThat(p.get("estimatedItems").asLong()).isEqualTo(ITEMS);
            assertThat(p.get("throttles").asLong()).isNotNegative();
            assertThat(p.get("wcuConsumed").asLong()).isPositive();
            previous = p.get("itemsWritten").asLong();
        }
        assertThat(progress.get(progress.size() - 1).get("itemsPerSecond").asDouble())
                .isPositive();
        assertThat(sse.get(sse.size() - 1).data().get("itemsWritten").asLong()).isEqualTo(ITEMS);

        // When a client reconnects after the third event with Last-Event-ID
        List<Sse> resumed = stream("followed", sse.get(2).id());

        // Then it gets exactly the events after the third
        assertThat(resumed.stream().map(Sse::id).toList())
                .isEqualTo(sse.subList(3, sse.size()).stream().map(Sse::id).toList());
    }

    @Test
    void listsRestoresNewestFirstFilteredAndPaged() throws Exception {
        // Given two finished restores of the same table
        for (String id : List.of("listed-1", "listed-2")) {
            Http.post(stack.apiUri("/restores"), """
                    {"restoreId": "%s", "source": {"table": "ledger", "backupId": "b-prog"},
                     "scope": {"type": "RECORDS", "keyFilters": [{"partitionKey": {"condition": "EqualTo", "values": ["p1"]}}]},
                     "destination": {"type": "FILE", "format": "CSV", "delivery": {"type": "DOWNLOAD"}}}""".formatted(id));
        }
        // (no exporter runs here: both stay RUNNING, which is what the filter below looks for)
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Http.get(stack.apiUri("/restores/listed-2"))
                        .json()
                        .get("state")
                        .asString()
                        .equals("RUNNING"));

        // When the running restores of the table are listed one per page
        JsonNode first = Http.get(stack.apiUri("/restores?table=ledger&state=RUNNING&limit=1"))
                .json();
        JsonNode second = Http.get(stack.apiUri(first.get("next").asString())).json();

        // Then the newest comes first, the next page has the other, and then there is no next page
        assertThat(first.get("items").get(0).get("restoreId").asString()).isEqualTo("listed-2");
        assertThat(second.get("items").get(0).get("restoreId").asString()).isEqualTo("listed-1");
        JsonNode third = second.has("next")
                ? Http.get(stack.apiUri(second.get("next").asString())).json()
                : null;
        assertThat(third == null || third.get("items").isEmpty()).isTrue();
        // and a bad filter is a problem that names it
        var bad = Http.get(stack.apiUri("/restores?state=DONE"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("errors").get(0).get("field").asString()).isEqualTo("/state");
    }

    @Test
    void cancelStopsTheWritersWithinSecondsPutsCapacityBackAndSaysWhatStayed() throws Exception {
        // Given a restore into an existing provisioned table, metered at 40 WCU, writing
        DynamoDbClient dynamo = stack.dynalite.client();
        CapacityIT.createProvisioned(dynamo, "ledger-copy");
        var response = Http.post(stack.apiUri("/restores"), """
                {"restoreId": "stopped", "source": {"table": "ledger", "backupId": "b-prog"},
                 "destination": {"type": "EXISTING_TABLE", "tableName": "ledger-copy"}}""");
        assertThat(response.status()).as(response.body()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(1)).until(() -> count(dynamo, "ledger-copy") > 50);

        // When it is cancelled
        var cancel = Http.post(stack.apiUri("/restores/stopped/cancel"), "{\"reason\": \"wrong backup\"}");
        long cancelledAt = System.nanoTime();
        assertThat(cancel.status()).as(cancel.body()).isEqualTo(202);

        // Then within 5 seconds no more items are written
        await().atMost(Duration.ofSeconds(30)).until(() -> status.last("stopped", "RestoreCancelled") != null);
        long sinceCancel = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cancelledAt);
        Thread.sleep(Math.max(0, 5_000 - sinceCancel));
        long afterFive = count(dynamo, "ledger-copy");
        Thread.sleep(3_000);
        assertThat(count(dynamo, "ledger-copy")).isEqualTo(afterFive).isLessThan(ITEMS);

        // and the status says how many items were written and that they stay
        JsonNode cancelled = status.last("stopped", "RestoreCancelled");
        assertThat(cancelled.get("itemsWritten").asLong())
                .as(() ->
                        status.of("stopped").stream().map(e -> e.raw()).toList().toString())
                .isEqualTo(afterFive);
        assertThat(cancelled.get("note").asString())
                .contains(afterFive + " items were written to ledger-copy")
                .contains("stay");
        JsonNode view = Http.get(stack.apiUri("/restores/stopped")).json();
        assertThat(view.get("state").asString()).isEqualTo("CANCELLED");
        assertThat(view.get("itemsWritten").asLong()).isEqualTo(afterFive);
        assertThat(view.get("cancelRequestedAt")).isNotNull();
        assertThat(status.typesOf("stopped")).contains("CancellationStarted", "SegmentCancelled");

        // and the table's original write capacity is back
        await().atMost(Duration.ofSeconds(30)).until(() -> status.last("stopped", "CapacityRestored") != null);
        assertThat(CapacityIT.writeUnits(dynamo, "ledger-copy")).containsExactly(5L, 5L);

        // and what was written is a part of the backup, item for item
        var written = ItemDigests.ofTable(dynamo, "ledger-copy", BackupFixtures.KEYS);
        assertThat(ItemDigests.of(items.items(ITEMS), BackupFixtures.KEYS)).containsAllEntriesOf(written);

        // and cancelling again is refused, saying why
        var again = Http.post(stack.apiUri("/restores/stopped/cancel"), "{}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("code").asString()).isEqualTo("RESTORE_ENDED");

        // and rolling the cancelled restore back leaves the table as it was before it: empty
        var rollback = Http.post(stack.apiUri("/restores/stopped/rollback"), "{\"reason\": \"wrong backup\"}");
        assertThat(rollback.status()).as(rollback.body()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(1)).until(() -> status.last("stopped", "RollbackCompleted") != null);
        assertThat(count(dynamo, "ledger-copy")).isZero();
        assertThat(status.last("stopped", "RollbackCompleted")
                        .get("itemsDeleted")
                        .asLong())
                .isEqualTo(afterFive);
    }

    @Test
    void metersMoveWhileARestoreRunsAndEveryServiceAnswersItsProbes() throws Exception {
        // Given a restore that takes some seconds
        startIntoOnDemandTable("metered", "metered-copy");

        // When the writer's metrics are scraped while it runs
        String items = "dynarestore_writer_items_total{table=\"metered-copy\"}";
        double first = await().atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> meter(writer, items), v -> v > 0);
        double later = await().atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> meter(writer, items), v -> v > first);

        // Then items, write units and retries or throttles move, while the restore is still running
        assertThat(later).isGreaterThan(first).isLessThan(ITEMS);
        assertThat(meter(writer, "dynarestore_writer_wcu_total{table=\"metered-copy\"}"))
                .isGreaterThan(0);
        assertThat(meter(writer, "dynarestore_writer_bytes_total{table=\"metered-copy\"}"))
                .isGreaterThan(0);
        assertThat(scrape(writer))
                .contains(
                        "dynarestore_writer_lag ",
                        "dynarestore_writer_throttles_total",
                        "dynarestore_writer_retries_total",
                        "dynarestore_writer_rate",
                        "dynarestore_writer_budget");
        assertThat(scrape(planner)).contains("dynarestore_planner_running ");

        // and once it completed, the writer timed its segments and the planner counted and timed the restore
        await().atMost(Duration.ofMinutes(2)).until(() -> status.last("metered", "RestoreCompleted") != null);
        assertThat(meter(writer, items)).isEqualTo(ITEMS);
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        meter(writer, "dynarestore_writer_segment_duration_seconds_count{outcome=\"DONE\"}") >= 12);
        assertThat(meter(planner, "dynarestore_planner_restores_total{outcome=\"COMPLETED\"}"))
                .isGreaterThanOrEqualTo(1);
        assertThat(scrape(planner))
                .contains("dynarestore_planner_restore_duration_seconds_count{outcome=\"COMPLETED\"");

        // and every service answers its liveness and readiness probes
        for (var service : List.of(planner, writer, stack.api)) {
            for (String probe : List.of("liveness", "readiness")) {
                assertThat(Http.get(RestoreStack.uri(service, "/actuator/health/" + probe))
                                .status())
                        .isEqualTo(200);
            }
        }
    }

    /** Starts a restore of the whole backup into a new on-demand table (metered by the proxy). */
    static void startIntoOnDemandTable(String restoreId, String table) throws Exception {
        var response = Http.post(stack.apiUri("/restores"), """
                {"restoreId": "%s", "source": {"table": "ledger", "backupId": "b-prog"},
                 "destination": {"type": "NEW_TABLE", "tableName": "%s",
                                 "options": {"billing": {"mode": "PAY_PER_REQUEST"}}}}""".formatted(restoreId, table));
        assertThat(response.status()).as(response.body()).isEqualTo(202);
    }

    static String scrape(org.springframework.context.ConfigurableApplicationContext service) throws Exception {
        var r = Http.get(RestoreStack.uri(service, "/actuator/prometheus"));
        assertThat(r.status()).isEqualTo(200);
        return r.body();
    }

    /** The value of one series (name and labels as Prometheus writes them, labels in order), 0 when absent. */
    static double meter(org.springframework.context.ConfigurableApplicationContext service, String series)
            throws Exception {
        String name = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
        String labels = series.contains("{") ? series.substring(series.indexOf('{') + 1, series.length() - 1) : "";
        for (String line : scrape(service).lines().toList()) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                if (labels.isEmpty() || line.contains(labels)) {
                    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        return 0;
    }

    static long count(DynamoDbClient dynamo, String table) {
        long n = 0;
        var pages = dynamo.scanPaginator(b -> b.tableName(table).select(Select.COUNT));
        for (var page : pages) {
            n += page.count();
        }
        return n;
    }

    static URI uri(String path) {
        return stack.apiUri(path);
    }
}
