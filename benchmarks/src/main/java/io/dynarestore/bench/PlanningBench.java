package io.dynarestore.bench;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.fleet.PlanningGroup;
import io.dynarestore.planner.fleet.PlanningPartWorker;
import io.dynarestore.planner.fleet.SharedDeltas;
import io.dynarestore.planner.staging.DeltaInput;
import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.SweepStager;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Point-in-time planning spread over the fleet (issue #22): the delta of {@code changes} changes
 * (an hour of overwrites, deletes and new keys over a base of a tenth as many items) built by one
 * planner alone, in one pass where the restore is, against the same delta shared by two planner
 * replicas (two part workers in the planning group, each a slice of the key-hash space). Same
 * vault, same run; the run fails unless both give the same delta (the same skip keys, byte for
 * byte, and the same counts).
 *
 * <pre>./mvnw -q -DskipTests install && java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.PlanningBench [changes] [rounds] [sliced|whole]</pre>
 */
public final class PlanningBench {

    private static final long SECOND = 1_000_000L;

    public static void main(String[] args) throws Exception {
        int changes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        // "whole": change files of one gzip member, as before ADR 0045 (every part reads every change)
        boolean sliced = args.length <= 2 || !args[2].equals("whole");
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var s3 = S3Server.start("vault")) {
            long t0 = Instant.now().minus(Duration.ofHours(3)).getEpochSecond() * SECOND;
            long started = System.nanoTime();
            PitrMemoryBench.writeVault(
                    s3, "bench", new RandomItems(2026, RandomItems.Shape.simple()), changes / 10, changes, t0, sliced);
            System.out.printf(
                    "vault: %,d base items and %,d changes (%s) written in %.1f s%n",
                    changes / 10,
                    changes,
                    sliced ? IncrementalExportWriter.KEY_SLICES + " key slices per file" : "files of one gzip member",
                    (System.nanoTime() - started) / 1e9);

            var layout = new VaultLayout("vault", "");
            var catalog = new VaultCatalog(s3.client(), layout);
            var resolution = PitrCoverage.of(
                            catalog.listBackups("000000000000", "us-east-1", "bench"),
                            catalog.listExports("000000000000", "us-east-1", "bench"),
                            Instant.now())
                    .resolve(Instant.ofEpochSecond(t0 / SECOND + 3_599))
                    .orElseThrow();
            var key = KeySchema.of(List.of("pk", "sk"), List.of("S", "N"));
            var stager = new DeltaStager(s3.client(), catalog, 64L << 20, 10_000);
            var publisher = new EventPublisher(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), "restore-planner");
            Map<String, Object> consumer = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            var workers = new ArrayList<PlanningPartWorker>();
            for (int w = 0; w < 2; w++) {
                workers.add(new PlanningPartWorker(
                        stager,
                        new SweepStager(s3.client(), catalog, 64L << 20, 10_000),
                        (account, region) -> {
                            throw new UnsupportedOperationException("no table is swept here");
                        },
                        s3.client(),
                        layout,
                        publisher,
                        "bench",
                        consumer,
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
                var shared = new SharedDeltas(
                        stager,
                        s3.client(),
                        layout,
                        publisher,
                        group,
                        new PlannerProperties.Fleet(0, 16, Duration.ofHours(1), 0),
                        Duration.ofMillis(100));
                for (int round = 1; round <= rounds; round++) {
                    String suffix = "-" + round;
                    var one = timed(() -> stager.stage("one" + suffix, DeltaInput.of(resolution, key.names())));
                    var two = timed(() -> shared.stage("two" + suffix, resolution, key, null));
                    check(s3, one.delta(), two.delta());
                    System.out.printf(
                            "round %d: %,d changes read, %,d keys in the delta (%,d deleted): one planner %.1f s, "
                                    + "two planners %.1f s; two / one = %.2f (goal <= 0.6)%n",
                            round,
                            one.delta().changesRead(),
                            one.delta().keys(),
                            one.delta().deletes(),
                            one.seconds(),
                            two.seconds(),
                            two.seconds() / one.seconds());
                    // the whole run's CPU: with every core of the machine busy, two can take no less than
                    // one's CPU-seconds over the cores, so one's cores / the machine's is the floor of two / one
                    int machine = Runtime.getRuntime().availableProcessors();
                    System.out.printf(
                            "  CPU: one planner %.1f CPU-s (%.2f cores busy), two planners %.1f CPU-s (%.2f cores); "
                                    + "floor of two / one on %d cores with one's CPU: %.2f%n",
                            one.cpu(), one.cores(), two.cpu(), two.cores(), machine, one.cores() / machine);
                }
            } finally {
                workers.forEach(PlanningPartWorker::close);
                publisher.close();
            }
        }
    }

    /** A delta, its wall time, and the CPU-seconds this JVM (planners, S3Proxy, broker: the whole run) spent on it. */
    private record Timed(DeltaStager.StagedDelta delta, double seconds, double cpu) {
        double cores() {
            return cpu / seconds;
        }
    }

    private static Timed timed(Supplier<DeltaStager.StagedDelta> staging) {
        long started = System.nanoTime();
        long cpu = CpuMeter.processCpu();
        var delta = staging.get();
        return new Timed(delta, (System.nanoTime() - started) / 1e9, (CpuMeter.processCpu() - cpu) / 1e9);
    }

    /** The two deltas are one: the same counts and the same skip keys (the sorted hashes of every changed key). */
    private static void check(S3Server s3, DeltaStager.StagedDelta one, DeltaStager.StagedDelta two) {
        byte[] a = s3.client()
                .getObjectAsBytes(b -> b.bucket("vault").key(one.skipKeys()))
                .asByteArray();
        byte[] b2 = s3.client()
                .getObjectAsBytes(b -> b.bucket("vault").key(two.skipKeys()))
                .asByteArray();
        if (one.puts() != two.puts() || one.deletes() != two.deletes() || !Arrays.equals(a, b2)) {
            throw new IllegalStateException("the shared delta differs from the one built alone: " + one + " / " + two);
        }
    }
}
