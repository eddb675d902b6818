package io.dynarestore.bench;

import static io.dynarestore.bench.BenchFixtures.writeBackup;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.S3Server;
import java.time.Duration;
import java.util.ArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A full restore into dynalite, the writers' budget lifted, against an independent tight
 * BatchWriteItem client writing the same items into the same dynalite (issue #22: at least 0.8 on
 * the first run, 0.9 warm). The item-writer and the client each run in a JVM of their own, as in
 * production, so that neither shares a JIT or a collector with the broker or S3Proxy (which stay in
 * this JVM); so does the planner. The writer's first restore is its first run; the rounds after it are
 * warm. Each round starts the client in a new JVM that writes the same items unmeasured first, as
 * many times as the writer has restored before (at most twice), so that both sides are as warm.
 * Each side's CPU seconds per 1,000 items are its whole process's (JIT and GC included), beside
 * dynalite's. Every table is deleted after its phase, so each phase starts on the same dynalite.
 */
final class CeilingBench {

    private static final int THREADS = 4;

    private CeilingBench() {}

    static void ceiling(int count, int rounds) throws Exception {
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var s3 = S3Server.start("vault")) {
            writeBackup(s3, "ceiling", count, 2_000, 2);
            Process planner = BenchFixtures.plannerProcess(kafka, dynalite.endpoint(), s3);
            Process writer =
                    BenchFixtures.writerProcess(kafka, dynalite.endpoint(), s3, "--writer.consumers=" + THREADS);
            var ratios = new ArrayList<Double>();
            try (var producer = BenchFixtures.producer(kafka);
                    var status = StatusWatch.fromNow(kafka.bootstrapServers())) {
                Thread.sleep(5_000); // the writer joins its group
                for (int round = 1; round <= rounds; round++) {
                    String name = round == 1 ? "first" : "warm-" + (round - 1);
                    String table = "tight-" + name;
                    BenchFixtures.awaitQuiet(dynalite.process().pid(), Duration.ofSeconds(30));
                    var tightDynalite = CpuMeter.start(dynalite.process().toHandle());
                    Process client = BenchFixtures.javaProcess(
                            "tight",
                            "512m",
                            TightClient.class,
                            dynalite.endpoint().toString(),
                            table,
                            String.valueOf(count),
                            String.valueOf(THREADS),
                            String.valueOf(Math.min(round - 1, 2))); // as warm as the writer, up to two runs
                    String[] tight = BenchFixtures.outputOf("tight", client)
                            .lines()
                            .filter(l -> l.startsWith("TIGHT "))
                            .findFirst()
                            .orElseThrow()
                            .split(" ");
                    double tightRate = Double.parseDouble(tight[1]);
                    double tightCpu = Double.parseDouble(tight[2]);
                    double tightDynaliteCpu = tightDynalite.seconds().get("other process");
                    dynalite.client().deleteTable(b -> b.tableName(table));

                    BenchFixtures.awaitQuiet(dynalite.process().pid(), Duration.ofSeconds(30));
                    var restoreDynalite = CpuMeter.start(dynalite.process().toHandle());
                    var writerCpu = CpuMeter.start(writer.toHandle());
                    long requested = System.currentTimeMillis();
                    double restore = restore(status, producer, "ceiling-" + name, count);
                    double restoreWriterCpu = writerCpu.seconds().get("other process");
                    double restoreDynaliteCpu = restoreDynalite.seconds().get("other process");
                    dynalite.client().deleteTable(b -> b.tableName("ceiling-" + name + "-restored"));

                    System.out.printf(
                            "ceiling %s: tight client %,.0f items/s, restore %,.0f items/s%n",
                            name, tightRate, restore);
                    System.out.printf(
                            "ceiling %s: CPU-s per 1,000 items: tight client's process %.3f (dynalite %.3f);"
                                    + " item-writer's process %.3f (dynalite %.3f)%n",
                            name,
                            tightCpu * 1_000 / count,
                            tightDynaliteCpu * 1_000 / count,
                            restoreWriterCpu * 1_000 / count,
                            restoreDynaliteCpu * 1_000 / count);
                    System.out.printf(
                            "RATIO end-to-end / tight client, %s run = %.2f (goal >= %s)%n",
                            name, restore / tightRate, round == 1 ? "0.8" : "0.9");
                    if (round > 1) {
                        ratios.add(restore / tightRate);
                    }
                    status.printTimeline("ceiling " + name, requested);
                }
            } finally {
                writer.destroy();
                planner.destroy();
            }
            ratios.sort(null);
            if (!ratios.isEmpty()) {
                System.out.printf(
                        "RATIO end-to-end / tight client, median of %d warm runs = %.2f (goal >= 0.9)%n",
                        ratios.size(), ratios.get(ratios.size() / 2));
            }
        }
    }

    /** A full restore into a new table, request to the publication of its RestoreCompleted; items per second. */
    private static double restore(
            StatusWatch status, KafkaProducer<String, String> producer, String restoreId, int count) throws Exception {
        long requested = System.currentTimeMillis();
        producer.send(new ProducerRecord<>(
                        Topic.REQUESTS.topicName(),
                        restoreId,
                        BenchFixtures.request(restoreId, "ceiling", restoreId + "-restored")))
                .get();
        var end = status.awaitEnd(restoreId, Duration.ofMinutes(20));
        if (!"RestoreCompleted".equals(end.get("type"))
                || !String.valueOf(count).equals(end.get("itemsWritten"))) {
            throw new IllegalStateException("restore " + restoreId + " ended " + end);
        }
        return count / ((Long.parseLong(end.get("publishedAt")) - requested) / 1e3);
    }
}
