package io.dynarestore.bench;

import static io.dynarestore.bench.BenchFixtures.concat;
import static io.dynarestore.bench.BenchFixtures.registry;
import static io.dynarestore.bench.BenchFixtures.submit;
import static io.dynarestore.bench.BenchFixtures.writeBackup;

import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.exporter.files.CsvExport;
import io.dynarestore.planner.PlannerApplication;
import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.writer.WriterApplication;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The item-writer's four goals of issue #6, each as a ratio against a baseline measured in the
 * same run:
 * <ol>
 *   <li>{@code reader}: scanning and filtering a backup's data files with the vault reader vs only
 *       inflating the same files with {@link GZIPInputStream} (goal at least 0.8);</li>
 *   <li>{@code ceiling}: an end-to-end restore into dynalite vs a tight BatchWriteItem client's
 *       ceiling against the same dynalite, first run and warm ({@link CeilingBench}; issue #22:
 *       at least 0.8 and 0.9);</li>
 *   <li>{@code budget}: WCU consumed vs the budget with 1, 2 and 4 writer replicas, measured by
 *       {@link CapacityProxy} (goal within 5%, no second above 110%);</li>
 *   <li>{@code heap}: the peak heap of a writer process ({@code -Xmx512m}) restoring 10,000,000
 *       items through the proxy in discarding mode (goal flat, at most 512 MB).</li>
 * </ol>
 * and, on its own ({@code journal}), what the undo journal of issue #11 costs: a restore into an
 * existing table (read, journal, write) and its dry run (read only) against the same restore into
 * a new table (write only), the rollback's rate, and the journal's objects and bytes per item;
 * ({@code export}) a CSV export against a pure scan ({@code export <items> typed}: of a table that
 * keeps one type per attribute), and ({@code export-heap}) its live heap at
 * a fifth of the items and at all of them (issue #22).
 *
 * <pre>./mvnw -q -DskipTests install && java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.WriterBench [reader|ceiling|budget|heap|export|export-heap|export-split|all] [items] [rounds]</pre>
 */
public final class WriterBench {

    private WriterBench() {}

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "all";
        boolean all = which.equals("all");
        if (all || which.equals("reader")) {
            ReaderBench.reader(args.length > 1 ? Integer.parseInt(args[1]) : 400_000);
        }
        if (all || which.equals("ceiling")) {
            CeilingBench.ceiling(
                    args.length > 1 ? Integer.parseInt(args[1]) : 60_000,
                    args.length > 2 ? Integer.parseInt(args[2]) : 4);
        }
        if (all || which.equals("budget")) {
            budget(args.length > 1 ? Integer.parseInt(args[1]) : 12_000);
        }
        if (all || which.equals("heap")) {
            HeapBench.heap(args.length > 1 ? Integer.parseInt(args[1]) : 10_000_000);
        }
        if (which.equals("journal")) {
            JournalBench.journal(args.length > 1 ? Integer.parseInt(args[1]) : 30_000);
        }
        if (which.equals("export-heap")) {
            exportHeap(args.length > 1 ? Integer.parseInt(args[1]) : 5_000_000);
        }
        if (which.equals("export")) {
            export(args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000, args.length > 2 && args[2].equals("typed"));
        }
        if (which.equals("export-split")) {
            SplitExportBench.run(
                    args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000,
                    args.length > 2 ? Integer.parseInt(args[2]) : 2,
                    args.length > 3 ? Integer.parseInt(args[3]) : 2);
        }
        System.exit(0);
    }

    // ---- 3. consumed WCU vs budget with 1, 2 and 4 replicas ----

    static void budget(int count) throws Exception {
        long budget = 400;
        for (int replicas : new int[] {1, 2, 4}) {
            try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                    var dynalite = Dynalite.start();
                    var s3 = S3Server.start("vault");
                    var proxy = CapacityProxy.inFrontOf(dynalite.endpoint())) {
                // many small segments, so that every replica has work until near the end
                writeBackup(s3, "budget", count, 250, budget);
                List<ConfigurableApplicationContext> services = new ArrayList<>();
                String endpoint = proxy.endpoint().toString();
                String[] common = BenchFixtures.serviceArgs(kafka, proxy.endpoint(), s3);
                services.add(PlannerApplication.builder().run(concat(common, registry("planner", endpoint))));
                for (int r = 0; r < replicas; r++) {
                    services.add(WriterApplication.builder()
                            .run(concat(
                                    concat(common, registry("writer", endpoint)),
                                    "--writer.consumers=2",
                                    "--writer.budget.provisioned-share=1.0")));
                }
                try {
                    Thread.sleep(6_000); // the writers' group settles
                    submit(kafka, "budget-" + replicas, "budget", "budget-restored");
                    var end = PitrMemoryBench.awaitEnd(
                            kafka.bootstrapServers(), "budget-" + replicas, Duration.ofMinutes(20));
                    SortedMap<Long, Long> perSecond = proxy.consumedPerSecond("budget-restored");
                    var values = new ArrayList<>(perSecond.values());
                    // steady state: without the first and the last second (partial seconds)
                    var steady = values.subList(1, Math.max(2, values.size() - 1));
                    double mean =
                            steady.stream().mapToLong(Long::longValue).average().orElse(0);
                    long peak = values.stream().mapToLong(Long::longValue).max().orElse(0);
                    long total = values.stream().mapToLong(Long::longValue).sum();
                    double overall = (double) total / (perSecond.lastKey() - perSecond.firstKey() + 1);
                    System.out.printf(
                            "budget: %d replica(s): %s %s items, %,d WCU in %d s; mean %.0f WCU/s steady, "
                                    + "%.0f overall, busiest second %d, throttled %d%n",
                            replicas,
                            end.get("type"),
                            end.get("itemsWritten"),
                            total,
                            values.size(),
                            mean,
                            overall,
                            peak,
                            proxy.throttledCalls());
                    System.out.printf(
                            "RATIO consumed/budget %d replica(s) = %.3f steady, %.3f overall; busiest "
                                    + "second %.3f (goal 0.95-1.05, busiest <= 1.10)%n",
                            replicas, mean / budget, overall / budget, (double) peak / budget);
                } finally {
                    for (int i = services.size() - 1; i >= 0; i--) {
                        services.get(i).close();
                    }
                }
            }
        }
    }

    // ---- granular recovery: a CSV export's heap does not grow with its size (issue #7) ----

    static void export(int count, boolean typed) throws Exception {
        Path dir = Files.createTempDirectory("bench-s3");
        try (var s3 = S3Server.start(Ports.free(), dir, "vault", true)) {
            // typed: a table that keeps one type per attribute (about 35 CSV columns, not 302)
            Backup backup = writeBackup(
                    s3, "export", count, 100_000, 2, typed ? BenchFixtures::oneTypePerName : UnaryOperator.identity());
            var export = new CsvExport(s3.client(), 8 * 1024 * 1024);
            var memory = ManagementFactory.getMemoryMXBean();
            for (long cap : new long[] {count / 10, count}) {
                System.gc();
                var peak = new AtomicLong();
                var sampler = new Thread(() -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                        try {
                            Thread.sleep(50);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                sampler.setDaemon(true);
                sampler.start();
                var cpu = CpuMeter.start(ProcessHandle.current());
                long t0 = System.nanoTime();
                var summary = export.export(
                        backup, null, List.of("pk", "sk"), cap, "vault", "_exports/bench-" + cap + ".csv", n -> {});
                sampler.interrupt();
                double seconds = (System.nanoTime() - t0) / 1e9;
                var spent = cpu.seconds();
                System.out.printf(
                        "export: %,d items, %,d bytes in %.1f s; heap peak %,d MB%n"
                                + "export: CPU-s: the export's thread %.1f, S3Proxy %.1f, this JVM in all %.1f (%s)%n",
                        summary.items(),
                        summary.bytes(),
                        seconds,
                        peak.get() >> 20,
                        spent.getOrDefault("main", 0.0),
                        spent.getOrDefault("s3proxy", 0.0),
                        cpu.processSeconds(),
                        cpu.gcAndJit());
                if (cap == count) {
                    // the same export without the backup's listed attribute types: through the spool, as before
                    var unlisted = new Backup(
                            backup.layout(),
                            backup.metadata().withAttributeTypes(null),
                            backup.summary(),
                            backup.files());
                    long u0 = System.nanoTime();
                    var spooled = export.export(
                            unlisted, null, List.of("pk", "sk"), cap, "vault", "_exports/bench-spooled.csv", n -> {});
                    double spooledSeconds = (System.nanoTime() - u0) / 1e9;
                    if (!spooled.sha256().equals(summary.sha256())) {
                        throw new IllegalStateException("the spooled file differs from the file of the known header");
                    }
                    System.out.printf(
                            "export: the same through the spool (no listed attribute types) %.1f s%n", spooledSeconds);
                    // the baseline: the same files from the same S3, inflated and split into lines, nothing more
                    long s0 = System.nanoTime();
                    long lines = BenchFixtures.pureScan(s3, backup);
                    double scan = (System.nanoTime() - s0) / 1e9;
                    System.out.printf(
                            "export: pure scan of the same files %.1f s (%,d lines)%n"
                                    + "RATIO CSV export / pure scan (inflate and split lines), items per second = %.2f "
                                    + "(goal >= 0.7)%n"
                                    + "RATIO CSV export through the spool / pure scan = %.2f%n",
                            scan, lines, scan / seconds, scan / spooledSeconds);
                }
            }
        } finally {
            BenchFixtures.deleteTree(dir);
        }
    }

    /**
     * The live heap of a CSV export of the first fifth of {@code count} items, then of all of them
     * (every column): every 5 s a full collection, then the heap in use, so that garbage does not
     * count. Flat means the peak of the whole export is within a tenth (or 16 MB) of the fifth's.
     */
    static void exportHeap(int count) throws Exception {
        Path dir = Files.createTempDirectory("bench-s3");
        try (var s3 = S3Server.start(Ports.free(), dir, "vault", true)) {
            long w0 = System.nanoTime();
            Backup backup = writeBackup(s3, "export", count, 100_000, 2);
            System.out.printf(
                    "export-heap: backup of %,d items written in %.0f s%n", count, (System.nanoTime() - w0) / 1e9);
            var export = new CsvExport(s3.client(), 8 * 1024 * 1024);
            long fifth = liveHeapPeak(export, backup, count / 5);
            long whole = liveHeapPeak(export, backup, count);
            System.out.printf(
                    "RATIO live heap peak, %,d items / %,d items = %.2f (flat: <= 1.1, or within 16 MB) %s%n",
                    count,
                    count / 5,
                    (double) whole / fifth,
                    whole <= fifth * 1.1 || whole - fifth <= 16L << 20 ? "FLAT" : "GROWING");
        } finally {
            BenchFixtures.deleteTree(dir);
        }
    }

    /** Exports at most {@code cap} items, sampling the live heap every 5 s; returns its peak. */
    private static long liveHeapPeak(CsvExport export, Backup backup, long cap) throws InterruptedException {
        var memory = ManagementFactory.getMemoryMXBean();
        var live = new ArrayList<Long>();
        var sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(5_000);
                } catch (InterruptedException e) {
                    return;
                }
                System.gc();
                synchronized (live) {
                    live.add(memory.getHeapMemoryUsage().getUsed());
                }
            }
        });
        sampler.setDaemon(true);
        System.gc();
        long before = memory.getHeapMemoryUsage().getUsed();
        sampler.start();
        long t0 = System.nanoTime();
        var summary = export.export(
                backup, null, List.of("pk", "sk"), cap, "vault", "_exports/heap-" + cap + ".csv", n -> {});
        sampler.interrupt();
        sampler.join();
        List<Long> samples;
        synchronized (live) {
            samples = List.copyOf(live);
        }
        long peak = samples.stream().mapToLong(Long::longValue).max().orElse(before);
        System.out.printf(
                "export-heap: %,d items, %,d bytes of CSV in %.0f s; live heap before %,d MB, after GC every 5 s"
                        + " (%d samples) %s MB, peak %,d MB%n",
                summary.items(),
                summary.bytes(),
                (System.nanoTime() - t0) / 1e9,
                before >> 20,
                samples.size(),
                samples.stream().map(v -> String.valueOf(v >> 20)).toList(),
                peak >> 20);
        return peak;
    }
}
