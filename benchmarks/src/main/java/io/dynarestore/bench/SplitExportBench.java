package io.dynarestore.bench;

import io.dynarestore.contracts.work.ExportDispatched;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.exporter.files.CsvExport;
import io.dynarestore.exporter.files.SplitExport;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.S3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A CSV export split into parts (ADR 0041) against the one-pass export and a pure scan of the same
 * files, in one run: the parts run on threads of this JVM, standing for exporter replicas (here
 * they share the machine's cores with each other and with S3Proxy, as replicas on one node would),
 * then one merge. Prints each phase and the ratios.
 *
 * <pre>java -Xmx1g -cp ... io.dynarestore.bench.WriterBench export-split [items] [parts] [rounds]</pre>
 */
final class SplitExportBench {

    private SplitExportBench() {}

    static void run(int count, int parts, int rounds) throws Exception {
        Path dir = Files.createTempDirectory("bench-s3");
        try (var s3 = S3Server.start(Ports.free(), dir, "vault", true)) {
            Backup backup = BenchFixtures.writeBackup(s3, "export", count, 100_000, 2);
            var export = new CsvExport(s3.client(), 8 * 1024 * 1024);
            var splitExport = new SplitExport(s3.client(), 8 * 1024 * 1024, false);
            var copyingExport = new SplitExport(s3.client(), 8 * 1024 * 1024, true);
            var keys = List.of("pk", "sk");
            int files = backup.files().size();
            if (parts > files) {
                throw new IllegalArgumentException(parts + " parts of " + files + " data files");
            }
            ExecutorService replicas = Executors.newFixedThreadPool(parts);
            try {
                for (int round = 1; round <= rounds; round++) {
                    long s0 = System.nanoTime();
                    long lines = BenchFixtures.pureScan(s3, backup);
                    double scan = seconds(s0);

                    long o0 = System.nanoTime();
                    var one = export.export(backup, null, keys, count, "vault", "_exports/one.csv", n -> {});
                    double onePass = seconds(o0);

                    String staging = "_staging/bench-" + round + "/export-parts/";
                    long p0 = System.nanoTime();
                    var futures = new ArrayList<Future<?>>();
                    for (int p = 0; p < parts; p++) {
                        var split = new ExportDispatched.Split(
                                p, parts, files * p / parts, files * (p + 1) / parts, staging);
                        futures.add(replicas.submit(
                                () -> splitExport.exportPart(backup, split, null, keys, count, "vault")));
                    }
                    for (var f : futures) {
                        f.get();
                    }
                    double partsTime = seconds(p0);
                    long m0 = System.nanoTime();
                    var merged = splitExport.merge("vault", "_exports/split.csv", staging, parts, keys, count, n -> {});
                    double mergeTime = seconds(m0);
                    if (!merged.sha256().equals(one.sha256())) {
                        throw new IllegalStateException("the merged file differs from the one-pass file");
                    }
                    // the same parts merged again, copied by S3 (UploadPartCopy) where they are CSV records
                    long c0 = System.nanoTime();
                    var copied =
                            copyingExport.merge("vault", "_exports/copied.csv", staging, parts, keys, count, n -> {});
                    double copyTime = seconds(c0);
                    if (!copied.sha256().equals(one.sha256())) {
                        throw new IllegalStateException("the file copied by S3 differs from the one-pass file");
                    }
                    System.out.printf("  the same parts merged by S3's copies instead: %.1f s%n", copyTime);
                    double split = partsTime + mergeTime;
                    System.out.printf(
                            "export-split round %d: %,d items (%,d lines scanned), %,d bytes of CSV%n"
                                    + "  pure scan %.1f s; one pass %.1f s; %d parts %.1f s + merge %.1f s = %.1f s%n"
                                    + "RATIO one pass / pure scan, items per second = %.2f%n"
                                    + "RATIO split / pure scan, items per second = %.2f (goal >= 0.7)%n"
                                    + "RATIO split / one pass, time = %.2f%n",
                            round,
                            merged.items(),
                            lines,
                            merged.bytes(),
                            scan,
                            onePass,
                            parts,
                            partsTime,
                            mergeTime,
                            split,
                            scan / onePass,
                            scan / split,
                            split / onePass);
                }
            } finally {
                replicas.shutdownNow();
            }
        } finally {
            BenchFixtures.deleteTree(dir);
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
