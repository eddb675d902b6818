package io.dynarestore.chaos;

import io.dynarestore.core.csv.ConsoleCsv;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import tools.jackson.databind.JsonNode;

/**
 * One chaos run: a table with a random history goes into the vault (a base backup and
 * incremental exports over a minute of writes); restores of it start, into a new table and into
 * an existing provisioned table (whose capacity the planner raises), and sometimes to a CSV
 * file; while they run, the run's faults are injected at random moments. When every restore
 * has ended, each destination is compared with the oracle, a brute-force replay of the history.
 */
final class ChaosRun {

    static final long SECOND = 1_000_000L;
    private static final String[] KEY_TYPES = {"S", "N", "B"};
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Capacity of a new table (the backup's) and the existing table's real limit in the proxy. */
    static final long WRITE_UNITS = 80;

    static final long EXISTING_UNITS = 5;

    /** One restore of the run and its verdict. */
    /** @param reported the restore's own count of items written ({@code itemsWritten}), -1 when it has none */
    record Outcome(
            String restoreId,
            String kind,
            String end,
            String reason,
            long expected,
            long lost,
            long extra,
            Boolean capacityPutBack,
            long reported) {
        boolean completed() {
            return "RestoreCompleted".equals(end);
        }

        /** Whether a completed restore's own count differs from the items it was to restore. */
        boolean countOff() {
            return completed() && reported != expected;
        }

        boolean failedWithReason() {
            return "RestoreFailed".equals(end) && reason != null && !reason.isBlank();
        }
    }

    /**
     * @param faultsDuringRestores how many of the faults struck while at least one restore ran
     * @param rollback             whether rolling the existing-table restore back left that table as it was
     *                             before (empty); {@code null} when that restore did not complete
     */
    record Result(
            int run,
            List<Fault> faults,
            int faultsDuringRestores,
            List<Outcome> outcomes,
            List<String> notes,
            Boolean rollback) {}

    private record Restore(
            String id,
            String kind,
            String table,
            Collection<Map<String, AttributeValue>> expected,
            boolean existing,
            boolean file) {}

    private final ChaosStack stack;
    private final TopicRecorder status;
    private final KafkaProducer<String, String> producer;
    private final int run;
    private final Random r;
    private final Duration pause;
    private final List<String> notes = new ArrayList<>();
    private int faultsDuringRestores;

    ChaosRun(
            ChaosStack stack,
            TopicRecorder status,
            KafkaProducer<String, String> producer,
            int run,
            long seed,
            Duration pause) {
        this.stack = stack;
        this.status = status;
        this.producer = producer;
        this.run = run;
        this.r = new Random(seed);
        this.pause = pause;
    }

    Result execute(List<Fault> faults) throws Exception {
        // Given a table with a random history in the vault
        RandomItems.Shape shape = new RandomItems.Shape(
                "id", KEY_TYPES[r.nextInt(3)], r.nextInt(4) > 0 ? "at" : null, KEY_TYPES[r.nextInt(3)], Map.of());
        List<String> keys = shape.sortKey() == null ? List.of("id") : List.of("id", "at");
        String source = "src-" + run;
        long t0 = Instant.now()
                        .minus(1, ChronoUnit.HOURS)
                        .truncatedTo(ChronoUnit.SECONDS)
                        .getEpochSecond()
                * SECOND;
        long spanSeconds = 60;
        var history = new RandomHistory(
                r.nextLong(), shape, 700 + r.nextInt(700), 300 + r.nextInt(500), t0, spanSeconds * SECOND);
        TableDescription description = ChaosTables.description(source, shape, WRITE_UNITS);
        ChaosTables.writeVault(stack, r, "b-" + run, source, description, history, t0, t0 + (spanSeconds + 2) * SECOND);

        // When restores of it start
        var restores = new ArrayList<Restore>();
        Instant atNew = ChaosTables.instant(t0 + (1 + r.nextInt((int) spanSeconds - 1)) * SECOND);
        boolean fromBackup = r.nextBoolean();
        restores.add(start(
                new Restore(
                        "c" + run + "-new",
                        fromBackup ? "backup → new table" : "second → new table",
                        "dst-" + run + "-new",
                        fromBackup
                                ? history.base()
                                : history.imageBefore(ChaosTables.micros(atNew) + SECOND)
                                        .values(),
                        false,
                        false),
                source,
                fromBackup ? null : atNew));
        Instant atExisting = ChaosTables.instant(t0 + (1 + r.nextInt((int) spanSeconds - 1)) * SECOND);
        ChaosTables.createExisting(stack, "dst-" + run + "-old", shape, EXISTING_UNITS);
        restores.add(start(
                new Restore(
                        "c" + run + "-old",
                        "second → existing table",
                        "dst-" + run + "-old",
                        history.imageBefore(ChaosTables.micros(atExisting) + SECOND)
                                .values(),
                        true,
                        false),
                source,
                atExisting));

        // and, while they run, the faults strike at random moments
        awaitUnderWay(restores.get(0).id());
        var order = new ArrayList<>(faults);
        Collections.shuffle(order, r);
        for (Fault fault : order) {
            Thread.sleep(500 + r.nextInt(2_500));
            if (fault == Fault.KILL_EXPORTER) {
                restores.add(start(
                        new Restore("c" + run + "-csv", "backup → CSV file", null, history.base(), false, true),
                        source,
                        null));
                Thread.sleep(100 + r.nextInt(900)); // the exporter is reading or uploading
            }
            long running = restores.stream()
                    .filter(x -> status.terminal(x.id()) == null)
                    .count();
            inject(fault);
            if (running > 0) {
                faultsDuringRestores++;
            }
            notes.add(fault + " struck while " + running + " of " + restores.size() + " restores ran");
        }
        if (!faults.contains(Fault.KILL_EXPORTER) && r.nextInt(3) == 0) {
            restores.add(start(
                    new Restore("c" + run + "-csv", "backup → CSV file", null, history.base(), false, true),
                    source,
                    null));
        }

        // Then every restore ends, and each destination equals the oracle
        var outcomes = new ArrayList<Outcome>();
        for (Restore restore : restores) {
            outcomes.add(verdict(restore, keys));
        }

        // and rolling the existing-table restore back (with the planner killed meanwhile, in runs that
        // kill the planner) leaves that table as it was before the restore: empty
        Boolean rollback =
                outcomes.get(1).completed() ? rollBack(restores.get(1), faults.contains(Fault.KILL_PLANNER)) : null;
        return new Result(run, faults, faultsDuringRestores, outcomes, notes, rollback);
    }

    private Boolean rollBack(Restore restore, boolean killPlanner) throws Exception {
        var response = HTTP.send(
                HttpRequest.newBuilder(stack.api("/restores/" + restore.id() + "/rollback"))
                        .header(LocalApi.HEADER, LocalApi.KEY)
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202) {
            notes.add("rollback of " + restore.id() + " answered " + response.statusCode() + ": " + response.body());
            return false;
        }
        if (killPlanner) {
            Thread.sleep(200 + r.nextInt(1_500));
            boolean under = !status.has(restore.id(), "RollbackCompleted");
            stack.killAndReplace("restore-planner");
            notes.add("KILL_PLANNER struck " + (under ? "while" : "after") + " " + restore.id() + " rolled back");
        }
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        while (!status.has(restore.id(), "RollbackCompleted")
                && !status.has(restore.id(), "RollbackFailed")
                && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
        }
        if (!status.has(restore.id(), "RollbackCompleted")) {
            var failed = status.last(restore.id(), "RollbackFailed");
            notes.add("rollback of " + restore.id() + " did not complete: " + (failed == null ? "no end" : failed));
            return false;
        }
        int left = stack.dynamo()
                .scan(b -> b.tableName(restore.table()).select("COUNT"))
                .count();
        if (left != 0) {
            notes.add("rollback of " + restore.id() + " left " + left + " items in " + restore.table());
        }
        return left == 0;
    }

    private Restore start(Restore restore, String source, Instant pointInTime) throws Exception {
        String src = pointInTime == null
                ? "{\"table\":\"" + source + "\",\"backupId\":\"b-" + run + "\"}"
                : "{\"table\":\"" + source + "\",\"pointInTime\":\"" + pointInTime + "\"}";
        String destination = restore.file()
                ? "{\"type\":\"FILE\",\"format\":\"CSV\",\"delivery\":{\"type\":\"DOWNLOAD\"}}"
                : "{\"type\":\"" + (restore.existing() ? "EXISTING_TABLE" : "NEW_TABLE") + "\",\"tableName\":\""
                        + restore.table() + "\"}";
        String body =
                "{\"restoreId\":\"" + restore.id() + "\",\"source\":" + src + ",\"destination\":" + destination + "}";
        if (!restore.file() && r.nextBoolean()) {
            producer.send(new ProducerRecord<>("restore.requests", restore.id(), body))
                    .get();
            notes.add(restore.id() + " published on restore.requests");
        } else {
            var response = HTTP.send(
                    HttpRequest.newBuilder(stack.api("/restores"))
                            .header(LocalApi.HEADER, LocalApi.KEY)
                            .timeout(Duration.ofSeconds(30))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 202) {
                throw new IllegalStateException(
                        "POST /restores answered " + response.statusCode() + ": " + response.body());
            }
            notes.add(restore.id() + " posted to restore-api");
        }
        return restore;
    }

    private void awaitUnderWay(String restoreId) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (Instant.now().isBefore(deadline)
                && !status.has(restoreId, "SegmentsDispatched")
                && status.terminal(restoreId) == null) {
            Thread.sleep(100);
        }
    }

    private void inject(Fault fault) throws Exception {
        long started = System.nanoTime();
        switch (fault) {
            case KILL_WRITER -> stack.killAndReplace("item-writer");
            case KILL_PLANNER -> stack.killAndReplace("restore-planner");
            case KILL_EXPORTER -> stack.killAndReplace("exporter");
            case RESTART_BROKER -> stack.restartBroker();
            case PAUSE_DYNAMODB -> stack.pauseDynamo(pause);
            case PAUSE_S3 -> stack.pauseS3(pause);
        }
        notes.add(
                fault + " took " + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
    }

    private Outcome verdict(Restore restore, List<String> keys) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(8));
        JsonNode end;
        while ((end = status.terminal(restore.id())) == null && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
        }
        long expected = restore.expected().size();
        if (end == null) {
            return new Outcome(restore.id(), restore.kind(), "none (hung)", null, expected, 0, 0, null, -1);
        }
        String type = end.path("type").asString();
        String reason = end.hasNonNull("reason") ? end.get("reason").asString() : null;
        Boolean putBack = restore.existing() ? capacityPutBack(restore.table()) : null;
        if (!"RestoreCompleted".equals(type)) {
            return new Outcome(restore.id(), restore.kind(), type, reason, expected, 0, 0, putBack, -1);
        }
        TreeMap<String, String> want;
        TreeMap<String, String> got;
        if (restore.file()) {
            var response = HTTP.send(
                    HttpRequest.newBuilder(stack.api("/restores/" + restore.id() + "/download"))
                            .header(LocalApi.HEADER, LocalApi.KEY)
                            .timeout(Duration.ofSeconds(60))
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            // a CSV cell cannot tell an empty string from an absent attribute, so files are compared by key
            want = keysOnly(restore.expected(), keys);
            got = keysOnly(response.statusCode() == 200 ? ConsoleCsv.readAll(response.body()) : List.of(), keys);
        } else {
            want = ItemDigests.of(restore.expected(), keys);
            got = ItemDigests.ofTable(stack.dynamo(), restore.table(), keys);
        }
        long lost = want.entrySet().stream()
                .filter(e -> !e.getValue().equals(got.get(e.getKey())))
                .count();
        long extra = got.entrySet().stream()
                .filter(e -> !e.getValue().equals(want.get(e.getKey())))
                .count();
        return new Outcome(
                restore.id(),
                restore.kind(),
                type,
                reason,
                expected,
                lost,
                extra,
                putBack,
                end.path("itemsWritten").asLong(-1));
    }

    /** Whether the existing table is back at the capacity it had before the restore (allowing a minute). */
    private boolean capacityPutBack(String table) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        while (true) {
            var throughput = stack.dynamo()
                    .describeTable(b -> b.tableName(table))
                    .table()
                    .provisionedThroughput();
            if (throughput.writeCapacityUnits() == EXISTING_UNITS && throughput.readCapacityUnits() == EXISTING_UNITS) {
                return true;
            }
            if (Instant.now().isAfter(deadline)) {
                return false;
            }
            Thread.sleep(500);
        }
    }

    private static TreeMap<String, String> keysOnly(Collection<Map<String, AttributeValue>> items, List<String> keys) {
        var out = new TreeMap<String, String>();
        for (var item : items) {
            out.put(ItemDigests.key(item, keys), "present");
        }
        return out;
    }
}
