package io.dynarestore.bench;

import static io.dynarestore.bench.BenchFixtures.submit;
import static io.dynarestore.bench.BenchFixtures.writeBackup;

import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.planner.PlannerApplication;
import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.writer.WriterApplication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peak heap of a writer process ({@code -Xmx512m}) restoring 10,000,000 items through the proxy
 * in discarding mode ({@code WriterBench heap}; goal flat, at most 512 MB).
 */
final class HeapBench {

    private HeapBench() {}

    // ---- 4. heap over 10,000,000 items ----

    static void heap(int count) throws Exception {
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var s3 = S3Server.start("vault");
                var proxy = CapacityProxy.inFrontOf(dynalite.endpoint())) {
            long t0 = System.nanoTime();
            // a table provisioned high enough that the proxy never throttles it: only memory is measured
            writeBackup(s3, "heap", count, 100_000, 40_000);
            System.out.printf("heap: backup of %,d items written in %.0f s%n", count, (System.nanoTime() - t0) / 1e9);
            var planner = PlannerApplication.builder()
                    .run(
                            "--spring.profiles.active=local",
                            "--server.port=0",
                            "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                            "--DYNAMODB_ENDPOINT=" + proxy.endpoint(),
                            "--S3_ENDPOINT=" + s3.endpoint());
            int port = Ports.free();
            Path log = Path.of("target", "bench-heap-writer.log").toAbsolutePath();
            Files.createDirectories(log.getParent());
            Process writer = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xmx512m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            WriterApplication.class.getName(),
                            "--spring.profiles.active=local",
                            "--server.port=" + port,
                            "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                            "--DYNAMODB_ENDPOINT=" + proxy.endpoint(),
                            "--S3_ENDPOINT=" + s3.endpoint(),
                            "--writer.budget.on-demand-target=1000000",
                            "--writer.budget.on-demand-initial-peak=1000000")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                Ports.awaitAccepting(port, Duration.ofSeconds(60), "item-writer");
                var peak = new AtomicLong();
                var samples = new ArrayList<Long>();
                var sampler = new Thread(() -> {
                    var last = new AtomicLong();
                    while (!Thread.currentThread().isInterrupted()) {
                        var p = new AtomicLong();
                        var one = new Thread(() -> PitrMemoryBench.sample(port, p));
                        one.start();
                        try {
                            Thread.sleep(1_000);
                        } catch (InterruptedException e) {
                            one.interrupt();
                            return;
                        }
                        one.interrupt();
                        synchronized (samples) {
                            samples.add(p.get());
                        }
                        peak.accumulateAndGet(p.get(), Math::max);
                        last.set(p.get());
                    }
                });
                sampler.setDaemon(true);
                sampler.start();
                proxy.discardingWrites();
                long started = System.nanoTime();
                submit(kafka, "heap-1", "heap", "heap-restored");
                var end = PitrMemoryBench.awaitEnd(kafka.bootstrapServers(), "heap-1", Duration.ofMinutes(60));
                double seconds = (System.nanoTime() - started) / 1e9;
                sampler.interrupt();
                long firstQuarter;
                long lastQuarter;
                synchronized (samples) {
                    int q = Math.max(1, samples.size() / 4);
                    firstQuarter = samples.subList(0, q).stream()
                            .mapToLong(Long::longValue)
                            .max()
                            .orElse(0);
                    lastQuarter = samples.subList(samples.size() - q, samples.size()).stream()
                            .mapToLong(Long::longValue)
                            .max()
                            .orElse(0);
                }
                System.out.printf(
                        "heap: %s, %s items written, %,d reached the proxy, %.0f s (%,.0f items/s)%n",
                        end.get("type"), end.get("itemsWritten"), proxy.acceptedItems(), seconds, count / seconds);
                System.out.printf(
                        "heap: writer peak %,d MB (first quarter of the run %,d MB, last quarter %,d MB)%n",
                        peak.get() >> 20, firstQuarter >> 20, lastQuarter >> 20);
                System.out.printf(
                        "RATIO heap peak / 512 MB = %.2f; last quarter / first quarter = %.2f (goal <= 1, " + "flat)%n",
                        (peak.get() >> 20) / 512.0, (double) lastQuarter / Math.max(1, firstQuarter));
            } finally {
                writer.destroy();
                writer.waitFor();
                planner.close();
            }
        }
    }
}
