package io.dynarestore.bench;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.fleet.PlanningGroup;
import io.dynarestore.planner.fleet.PlanningPartWorker;
import io.dynarestore.planner.fleet.SharedSweeps;
import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.SweepInput;
import io.dynarestore.planner.staging.SweepStager;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The sweep of a full in-place restore (ADR 0040): a backup of {@code items} items against a table
 * of {@code tableKeys} keys (half of them the backup's, half unknown to it), swept by one planner
 * alone and by two planner replicas (one parallel Scan segment each), against the pure scan
 * (inflate and split lines) of the backup's files in the same run. The run fails unless both sweeps
 * find the same deletes, and the unknown keys are exactly those.
 *
 * <pre>java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.SweepBench [items] [tableKeys] [rounds]</pre>
 */
public final class SweepBench {

    public static void main(String[] args) throws Exception {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int tableKeys = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var s3 = S3Server.start("vault");
                var dynalite = Dynalite.start()) {
            var backup = BenchFixtures.writeBackup(s3, "swept", items, 100_000, 1_000);
            var dynamo = dynalite.client();
            BenchFixtures.createTable(dynamo, "swept");
            var random = new RandomItems(6, BenchFixtures.SHAPE);
            var batch = new ArrayList<WriteRequest>();
            for (int i = 0; i < tableKeys; i++) {
                // even: a key of the backup (spread over it); odd: a key the backup never had
                var key = i % 2 == 0
                        ? keyOf(random.item((int) ((long) i * items / tableKeys)))
                        : Map.of("pk", AttributeValue.fromS("unknown-" + i), "sk", AttributeValue.fromN("" + i));
                batch.add(WriteRequest.builder().putRequest(p -> p.item(key)).build());
                if (batch.size() == 25) {
                    BenchFixtures.writeAll(dynamo, "swept", batch);
                }
            }
            BenchFixtures.writeAll(dynamo, "swept", batch);
            System.out.printf("backup of %,d items, table of %,d keys written%n", items, tableKeys);

            var catalog = new VaultCatalog(s3.client(), BenchFixtures.LAYOUT);
            var sweeper = new SweepStager(s3.client(), catalog, 64L << 20, 100_000);
            var input = SweepInput.of("000000000000", "us-east-1", "swept", List.of("pk", "sk"), backup, null);
            var publisher = new EventPublisher(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), "restore-planner");
            var workers = new ArrayList<PlanningPartWorker>();
            for (int w = 0; w < 2; w++) {
                workers.add(new PlanningPartWorker(
                        new DeltaStager(s3.client(), catalog, 64L << 20, 100_000),
                        sweeper,
                        (account, region) -> dynamo,
                        s3.client(),
                        BenchFixtures.LAYOUT,
                        publisher,
                        "bench",
                        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                        new ConsumerHealth(),
                        new SimpleMeterRegistry()));
            }
            try (var group = new PlanningGroup(
                    Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                    "bench-planning",
                    Topic.PLANNING.topicName(),
                    Duration.ofSeconds(5))) {
                workers.forEach(PlanningPartWorker::start);
                while (group.partitionPerReplica().size() < 2) {
                    Thread.sleep(200);
                }
                var shared = new SharedSweeps(
                        sweeper,
                        (account, region) -> dynamo,
                        s3.client(),
                        BenchFixtures.LAYOUT,
                        publisher,
                        group,
                        new PlannerProperties.Fleet(0, 16, Duration.ofHours(1), 0),
                        Duration.ofMillis(100));
                for (int round = 1; round <= rounds; round++) {
                    long started = System.nanoTime();
                    long lines = BenchFixtures.pureScan(s3, backup);
                    double scan = (System.nanoTime() - started) / 1e9;
                    String suffix = "-" + round;
                    var one = timed(() -> sweeper.stage("one" + suffix, input, dynamo));
                    var two = timed(() -> shared.stage("two" + suffix, input));
                    if (one.sweep().deletes() != tableKeys / 2
                            || two.sweep().deletes() != one.sweep().deletes()
                            || two.sweep().tableKeys() != tableKeys) {
                        throw new IllegalStateException("the sweeps differ: " + one.sweep() + " / " + two.sweep());
                    }
                    System.out.printf(
                            "round %d: pure scan of %,d lines %.2f s; sweep alone %.2f s (%.2f of the scan), "
                                    + "two planners %.2f s (two / one = %.2f); %,d deletes%n",
                            round,
                            lines,
                            scan,
                            one.seconds(),
                            one.seconds() / scan,
                            two.seconds(),
                            two.seconds() / one.seconds(),
                            one.sweep().deletes());
                }
            } finally {
                workers.forEach(PlanningPartWorker::close);
                publisher.close();
            }
        }
    }

    private static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
        return Map.of("pk", item.get("pk"), "sk", item.get("sk"));
    }

    private record Timed(SweepStager.StagedSweep sweep, double seconds) {}

    private static Timed timed(Supplier<SweepStager.StagedSweep> staging) {
        long started = System.nanoTime();
        var sweep = staging.get();
        return new Timed(sweep, (System.nanoTime() - started) / 1e9);
    }
}
