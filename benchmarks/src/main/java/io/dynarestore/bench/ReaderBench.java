package io.dynarestore.bench;

import static io.dynarestore.bench.BenchFixtures.writeBackup;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.testkit.S3Server;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The vault reader against plain {@code GZIPInputStream} inflate of the same files, in one run
 * (issues #6 and #22): the full parse with a filter, the selective reader with a filter that 1% of
 * the keys pass (with and without the files' MD5 checked, and with the key attributes written last
 * in every line), each as a ratio to the inflate of the same files. Run as
 * {@code WriterBench reader [items]}.
 */
final class ReaderBench {

    private ReaderBench() {}

    static void reader(int count) throws Exception {
        try (var s3 = S3Server.start("vault")) {
            Backup backup = writeBackup(s3, "reader", count, 50_000, 2);
            // the compressed files in memory, so that S3 is not what is measured
            var files = new ArrayList<byte[]>();
            for (ManifestFile f : backup.files()) {
                files.add(s3.client()
                        .getObjectAsBytes(b -> b.bucket("vault").key(f.dataFileS3Key()))
                        .asByteArray());
            }
            long compressed = files.stream().mapToLong(b -> b.length).sum();
            var key = KeySchema.of(List.of("pk", "sk"), List.of("S", "N"));
            var wide = RecordFilter.compile(
                    new Scope.Records(
                            List.of(new Scope.KeyFilter(new Scope.Condition("BeginsWith", List.of("p1")), null)),
                            List.of()),
                    key);
            // about 1% of the keys: partition keys beginning "p12", sort keys 0 to 3 of 0 to 6
            var narrow = RecordFilter.compile(
                    new Scope.Records(
                            List.of(new Scope.KeyFilter(
                                    new Scope.Condition("BeginsWith", List.of("p12")),
                                    new Scope.Condition("LessThan", List.of("4")))),
                            List.of()),
                    key);
            // the same items with the key attributes written last, as a scan may return them: the scan for
            // the key then crosses the whole line
            var keysLast = keysLast(files);
            var md5s = new ArrayList<String>();
            for (byte[] f : files) {
                md5s.add(Base64.getEncoder()
                        .encodeToString(MessageDigest.getInstance("MD5").digest(f)));
            }
            var times = new double[7];
            long[] matched = new long[5];
            for (int round = 0; round < 4; round++) {
                long t0 = System.nanoTime();
                long bytes = inflateOnly(files);
                long t1 = System.nanoTime();
                matched[0] = fullScan(files, wide);
                long t2 = System.nanoTime();
                matched[1] = selectiveScan(files, null, narrow);
                long t3 = System.nanoTime();
                matched[2] = fullScan(files, narrow);
                long t4 = System.nanoTime();
                matched[3] = selectiveScan(files, md5s, narrow);
                long t5 = System.nanoTime();
                inflateOnly(keysLast);
                long t6 = System.nanoTime();
                matched[4] = selectiveScan(keysLast, null, narrow);
                long t7 = System.nanoTime();
                if (round > 0) { // the first round warms the JIT up
                    times[0] += (t1 - t0) / 1e9;
                    times[1] += (t2 - t1) / 1e9;
                    times[2] += (t3 - t2) / 1e9;
                    times[3] += (t4 - t3) / 1e9;
                    times[4] += (t5 - t4) / 1e9;
                    times[5] += (t6 - t5) / 1e9;
                    times[6] += (t7 - t6) / 1e9;
                }
                if (round == 0) {
                    System.out.printf(
                            "reader: %,d items, %,d bytes compressed, %,d inflated%n", count, compressed, bytes);
                }
            }
            System.out.printf(
                    "reader: inflate only %.0f MB/s; full parse + filter %.0f MB/s (%,d matches of \"p1\"); "
                            + "selective scan + filter %.0f MB/s (%,d matches, %.2f%% of the items; full parse finds %,d)"
                            + ", of the compressed files%n",
                    compressed * 3 / times[0] / 1e6,
                    compressed * 3 / times[1] / 1e6,
                    matched[0],
                    compressed * 3 / times[2] / 1e6,
                    matched[1],
                    100.0 * matched[1] / count,
                    matched[2]);
            if (matched[1] != matched[2] || matched[3] != matched[2] || matched[4] != matched[2]) {
                throw new IllegalStateException("the selective scan found another set of items than the full parse");
            }
            System.out.printf("RATIO reader full parse + filter / inflate = %.2f%n", times[0] / times[1]);
            System.out.printf(
                    "RATIO reader selective scan + filter (1%% of keys pass) / inflate = %.2f (goal >= 0.8)%n",
                    times[0] / times[2]);
            System.out.printf(
                    "RATIO reader full parse + filter (1%% of keys pass) / inflate = %.2f (before the selective reader)%n",
                    times[0] / times[3]);
            System.out.printf(
                    "RATIO reader selective scan + filter, each file's MD5 checked as its manifest asks / inflate = %.2f%n",
                    times[0] / times[4]);
            System.out.printf(
                    "RATIO reader selective scan + filter, key attributes last in every line / inflate of those files = "
                            + "%.2f%n",
                    times[5] / times[6]);
        }
    }

    /** The baseline: plain {@code GZIPInputStream} inflate of every file, nothing else. */
    private static long inflateOnly(List<byte[]> files) throws IOException {
        long bytes = 0;
        byte[] buffer = new byte[64 * 1024];
        for (byte[] f : files) {
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(f), 64 * 1024)) {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    bytes += n;
                }
            }
        }
        return bytes;
    }

    /** The files again, every line's item with its key attributes moved to its end. */
    private static List<byte[]> keysLast(List<byte[]> files) throws IOException {
        var out = new ArrayList<byte[]>();
        for (byte[] f : files) {
            var bytes = new ByteArrayOutputStream();
            try (var r = new DataFileReader("f", new ByteArrayInputStream(f), null);
                    var gz = new GZIPOutputStream(bytes)) {
                for (ExportLine line; (line = r.next()) != null; ) {
                    var item = new LinkedHashMap<>(line.item());
                    item.put("pk", item.remove("pk")); // removed and put again: last
                    item.put("sk", item.remove("sk"));
                    gz.write(("{\"Item\":" + DynamoJson.toJson(item) + "}\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            out.add(bytes.toByteArray());
        }
        return out;
    }

    private static long fullScan(List<byte[]> files, RecordFilter filter) {
        long matched = 0;
        for (byte[] f : files) {
            try (var r = new DataFileReader("f", new ByteArrayInputStream(f), null)) {
                for (ExportLine line; (line = r.next()) != null; ) {
                    if (filter.matches(line.item())) {
                        matched++;
                    }
                }
            }
        }
        return matched;
    }

    private static long selectiveScan(List<byte[]> files, List<String> md5s, RecordFilter filter) {
        long matched = 0;
        var prefilter = KeyPrefilter.ofItems(List.of("pk", "sk"), filter::keyMayMatch);
        for (int i = 0; i < files.size(); i++) {
            try (var r = DataFileReader.selective(
                    "f", new ByteArrayInputStream(files.get(i)), md5s == null ? null : md5s.get(i), prefilter)) {
                for (ExportLine line; (line = r.next()) != null; ) {
                    if (filter.matches(line.item())) {
                        matched++;
                    }
                }
            }
        }
        return matched;
    }
}
