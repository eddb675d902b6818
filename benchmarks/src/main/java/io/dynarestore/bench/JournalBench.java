package io.dynarestore.bench;

import static io.dynarestore.bench.BenchFixtures.SHAPE;
import static io.dynarestore.bench.BenchFixtures.concat;
import static io.dynarestore.bench.BenchFixtures.createTable;
import static io.dynarestore.bench.BenchFixtures.writeAll;
import static io.dynarestore.bench.BenchFixtures.writeBackup;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.RollbackCompleted;
import io.dynarestore.contracts.status.RollbackFailed;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.planner.PlannerApplication;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.writer.WriterApplication;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * What the undo journal of issue #11 costs ({@code WriterBench journal}): a restore into an existing
 * table (read, journal, write) and its dry run (read only) against the same restore into a new table
 * (write only), the rollback's rate, and the journal's objects and bytes per item.
 */
final class JournalBench {

    private JournalBench() {}

    // ---- the undo journal's cost (issue #11) ----

    static void journal(int count) throws Exception {
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var s3 = S3Server.start("vault")) {
            writeBackup(s3, "undo", count, 2_000, 2);
            DynamoDbClient dynamo = dynalite.client();
            createTable(dynamo, "undo-existing");
            List<ConfigurableApplicationContext> services = new ArrayList<>();
            String[] common = BenchFixtures.serviceArgs(kafka, dynalite.endpoint(), s3);
            services.add(PlannerApplication.builder()
                    .run(concat(
                            common,
                            "--planner.capacity.raise=false",
                            "--planner.rollback.write-units-per-second=1000000")));
            services.add(WriterApplication.builder().run(BenchFixtures.liftedWriter(common)));
            try {
                Thread.sleep(3_000);
                double fresh =
                        timed(kafka, "undo-new", "{\"type\":\"NEW_TABLE\",\"tableName\":\"undo-new\"}", false, count);
                double dry = timed(
                        kafka,
                        "undo-dry",
                        "{\"type\":\"EXISTING_TABLE\",\"tableName\":" + "\"undo-existing\"}",
                        true,
                        count);
                double journaled = timed(
                        kafka,
                        "undo-real",
                        "{\"type\":\"EXISTING_TABLE\",\"tableName\":" + "\"undo-existing\"}",
                        false,
                        count);
                long[] created = journalSize(s3, "undo-real");
                double rollback = rollBack(kafka, "undo-real", count);
                long left = dynamo.scan(b -> b.tableName("undo-existing").select("COUNT"))
                        .count();
                // then every key held in another version: the restore overwrites them all
                var others = new RandomItems(99, SHAPE);
                var batch = new ArrayList<WriteRequest>(25);
                for (int i = 0; i < count; i++) {
                    batch.add(WriteRequest.builder()
                            .putRequest(
                                    PutRequest.builder().item(others.item(i)).build())
                            .build());
                    if (batch.size() == 25) {
                        writeAll(dynamo, "undo-existing", batch);
                        batch.clear();
                    }
                }
                writeAll(dynamo, "undo-existing", batch);
                double overwriting = timed(
                        kafka,
                        "undo-over",
                        "{\"type\":\"EXISTING_TABLE\",\"tableName\":"
                                + "\"undo-existing\"},\"scope\":{\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":"
                                + "{\"condition\":\"BeginsWith\",\"values\":[\"p\"]}}]}",
                        false,
                        count);
                long[] overwritten = journalSize(s3, "undo-over");
                double rollbackOver = rollBack(kafka, "undo-over", count);
                System.out.printf(
                        "journal: new table %,.0f items/s; existing empty table: dry run %,.0f items/s, "
                                + "journaled %,.0f items/s, rollback %,.0f items/s (%d items left after it); existing table "
                                + "of other versions: journaled %,.0f items/s, rollback %,.0f items/s%n",
                        fresh, dry, journaled, rollback, left, overwriting, rollbackOver);
                System.out.printf(
                        "journal of creates: %,d objects (%.1f per 1,000 items), %,d bytes (%.1f per item)%n",
                        created[0], created[0] * 1000.0 / count, created[1], (double) created[1] / count);
                System.out.printf(
                        "journal of overwrites: %,d objects (%.1f per 1,000 items), %,d bytes (%.1f per " + "item)%n",
                        overwritten[0],
                        overwritten[0] * 1000.0 / count,
                        overwritten[1],
                        (double) overwritten[1] / count);
                System.out.printf(
                        "RATIO journaled restore into an existing empty table / restore into a new table " + "= %.2f%n",
                        journaled / fresh);
                System.out.printf(
                        "RATIO journaled restore overwriting every item / restore into a new table = %.2f%n",
                        overwriting / fresh);
                System.out.printf("RATIO dry run / restore into a new table = %.2f%n", dry / fresh);
                System.out.printf(
                        "RATIO rollback of the overwrites / restore into a new table = %.2f%n", rollbackOver / fresh);
            } finally {
                services.forEach(ConfigurableApplicationContext::close);
            }
        }
    }

    /** The undo journal of a restore: its objects and bytes. */
    static long[] journalSize(S3Server s3, String restoreId) {
        long objects = 0;
        long bytes = 0;
        for (var page :
                s3.client().listObjectsV2Paginator(b -> b.bucket("vault").prefix("_journal/" + restoreId + "/"))) {
            for (var o : page.contents()) {
                objects++;
                bytes += o.size();
            }
        }
        return new long[] {objects, bytes};
    }

    /** Rolls a restore back over Kafka; returns the items per second. */
    static double rollBack(KafkaBroker kafka, String restoreId, int count) throws Exception {
        long started = System.nanoTime();
        BenchFixtures.send(
                kafka,
                Topic.COMMANDS,
                restoreId,
                "{\"type\":\"RollbackRequested\",\"restoreId\":\"" + restoreId + "\",\"eventId\":\"rb-" + restoreId
                        + "\",\"schemaVersion\":1,\"occurredAt\":\"" + Instant.now() + "\"}");
        awaitRollback(kafka.bootstrapServers(), restoreId, Duration.ofMinutes(20));
        return count / ((System.nanoTime() - started) / 1e9);
    }

    /** Items per second of one restore of the whole backup of table undo into {@code destination}. */
    static double timed(KafkaBroker kafka, String restoreId, String destination, boolean dryRun, int count)
            throws Exception {
        long started = System.nanoTime();
        BenchFixtures.send(
                kafka,
                Topic.REQUESTS,
                restoreId,
                "{\"restoreId\":\"" + restoreId
                        + "\",\"source\":{\"table\":\"undo\",\"backupId\":\"b\"},\"destination\":"
                        + destination
                        + (dryRun ? ",\"dryRun\":true" : "") + "}");
        var end = PitrMemoryBench.awaitEnd(kafka.bootstrapServers(), restoreId, Duration.ofMinutes(20));
        if (!"RestoreCompleted".equals(end.get("type"))) {
            throw new IllegalStateException(restoreId + " did not complete: " + end);
        }
        return count / ((System.nanoTime() - started) / 1e9);
    }

    static void awaitRollback(String bootstrap, String restoreId, Duration timeout) {
        try (var consumer = BenchFixtures.statusFromStart(bootstrap)) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (var record : consumer.poll(Duration.ofMillis(200))) {
                    var event = Messages.statusEvent(record.value());
                    if (event instanceof RollbackCompleted && restoreId.equals(event.restoreId())) {
                        return;
                    }
                    if (event instanceof RollbackFailed f && restoreId.equals(event.restoreId())) {
                        throw new IllegalStateException("rollback failed: " + f.reason());
                    }
                }
            }
            throw new IllegalStateException("rollback of " + restoreId + " did not end within " + timeout);
        }
    }
}
