package io.dynarestore.bench;

import static io.dynarestore.bench.BenchFixtures.writeBackup;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.S3Server;
import java.time.Duration;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A record restore of about 1% of a backup, request to completion, against a pure scan of the same
 * files (read from the same S3, inflated, split into lines) in the same run (issue #22, goal at most
 * 1.25): what the selective reader leaves of a record restore's cost beyond reading the backup.
 * The item-writer and the planner run in JVMs of their own, as in production; the broker and S3Proxy
 * in this one. The first restore is the writer's first run; the rounds after it are warm.
 *
 * <pre>java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.RecordRestoreBench [items] [rounds]</pre>
 */
public final class RecordRestoreBench {

    private RecordRestoreBench() {}

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var s3 = S3Server.start("vault")) {
            Backup backup = writeBackup(s3, "records", count, 50_000, 100);
            BenchFixtures.pureScan(s3, backup); // warms S3Proxy and the JIT as the restore's reads will be
            long s0 = System.nanoTime();
            long lines = BenchFixtures.pureScan(s3, backup);
            double scan = (System.nanoTime() - s0) / 1e9;
            System.out.printf("records: pure scan of %,d lines in %.1f s%n", lines, scan);

            Process planner = BenchFixtures.plannerProcess(kafka, dynalite.endpoint(), s3);
            Process writer = BenchFixtures.writerProcess(kafka, dynalite.endpoint(), s3);
            try (var producer = BenchFixtures.producer(kafka);
                    var status = StatusWatch.fromNow(kafka.bootstrapServers())) {
                Thread.sleep(3_000);
                for (int r = 1; r <= rounds; r++) {
                    String round = r == 1 ? "first" : "warm-" + (r - 1);
                    String id = "records-" + round;
                    BenchFixtures.awaitQuiet(dynalite.process().pid(), Duration.ofSeconds(30));
                    var cpu = CpuMeter.start(dynalite.process().toHandle());
                    var writerCpu = CpuMeter.start(writer.toHandle());
                    var plannerCpu = CpuMeter.start(planner.toHandle());
                    long requested = System.currentTimeMillis();
                    // 1.1% of 1,000,000 items: partition keys beginning "p12" (11,111 of 142,858), sort key 3 of 0 to 6
                    producer.send(new ProducerRecord<>(Topic.REQUESTS.topicName(), id, """
                                    {"restoreId":"%s","source":{"table":"records","backupId":"b"},
                                     "scope":{"type":"RECORDS","keyFilters":[{"partitionKey":{"condition":"BeginsWith",
                                       "values":["p12"]},"sortKey":{"condition":"EqualTo","values":["3"]}}]},
                                     "destination":{"type":"NEW_TABLE","tableName":"%s-restored"}}""".formatted(id, id)))
                            .get();
                    var end = status.awaitEnd(id, Duration.ofMinutes(20));
                    // to the completion's publication, not to this consumer's reading of it
                    double seconds = (Long.parseLong(end.get("publishedAt")) - requested) / 1e3;
                    System.out.printf(
                            "records %s: CPU-s during the restore: the item-writer's process %.1f, the planner's %.1f,"
                                    + " dynalite %.1f, this JVM (broker, S3Proxy) %.1f (%s)%n",
                            round,
                            writerCpu.seconds().get("other process"),
                            plannerCpu.seconds().get("other process"),
                            cpu.seconds().get("other process"),
                            cpu.processSeconds(),
                            cpu.gcAndJit());
                    System.out.printf(
                            "records %s: record restore, request to %s, %s items written of %,d, in %.1f s%n",
                            round, end.get("type"), end.get("itemsWritten"), count, seconds);
                    System.out.printf(
                            "RATIO record restore of 1%% (request to completion) / pure scan, %s run = %.2f"
                                    + " (goal <= 1.25)%n",
                            round, seconds / scan);
                    status.printTimeline("records " + round, requested);
                    dynalite.client().deleteTable(b -> b.tableName(id + "-restored"));
                }
            } finally {
                writer.destroy();
                planner.destroy();
            }
        }
        System.exit(0);
    }
}
