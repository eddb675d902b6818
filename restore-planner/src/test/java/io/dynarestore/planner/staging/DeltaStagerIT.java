package io.dynarestore.planner.staging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.TableDescriptions;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.pitr.KeyRange;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.pitr.SkipKeys;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.CorruptDataFileException;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Image(T) from a base backup, incremental exports and the staged delta, against a brute-force replay. */
class DeltaStagerIT {

    static final long SECOND = 1_000_000L;
    static final long T0 = Instant.parse("2026-11-30T10:00:00.250Z").toEpochMilli() * 1_000;
    static S3Server s3;
    static VaultLayout layout = new VaultLayout("vault", "");
    static VaultCatalog catalog;

    @BeforeAll
    static void start() {
        s3 = S3Server.start("vault");
        catalog = new VaultCatalog(s3.client(), layout);
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    static LongStream seeds() {
        return LongStream.range(0, 60);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void buildsTheImageAtARandomRestorableSecondExactly(long seed) throws Exception {
        // Given a random history: a base, then writes over 120 s, recorded in exports of random
        // length (a third of them compacted to each key's last write, as native exports are)
        Random r = new Random(seed);
        String table = "t" + seed;
        var history = new RandomHistory(
                seed, RandomItems.Shape.simple(), 20 + r.nextInt(40), 40 + r.nextInt(200), T0, 120 * SECOND);
        var backup = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", table, "base", 7);
        try (var part = backup.openPart()) {
            history.base().forEach(part::write);
        }
        backup.finish(TableDescriptions.ordersWithGsi(), List.of(), null, instant(T0), null);
        long cursor = T0 - r.nextInt(3) * SECOND;
        int n = 0;
        while (cursor < T0 + 125 * SECOND) {
            long length = (1 + r.nextInt(40)) * SECOND + r.nextInt(1_000) * 1_000L;
            boolean compacted = r.nextInt(3) == 0;
            // half of them cut in key slices, as the protector writes them (ADR 0045), of 1 to 20 slices
            int slices = r.nextBoolean() ? 0 : 1 + r.nextInt(20);
            writeExport(table, "x" + n++, history, cursor, cursor + length, compacted, slices);
            cursor += length;
        }

        // When a random restorable second is restored
        var coverage = PitrCoverage.of(
                catalog.listBackups("000000000000", "us-east-1", table),
                catalog.listExports("000000000000", "us-east-1", table),
                Instant.now());
        var windows = coverage.availability().windows();
        assertThat(windows).isNotEmpty();
        var window = windows.get(r.nextInt(windows.size()));
        long span = window.end().getEpochSecond() - window.start().getEpochSecond();
        Instant t = window.start().plusSeconds(span == 0 ? 0 : r.nextLong(span + 1));
        var resolution = coverage.resolve(t).orElseThrow();
        var stager = new DeltaStager(s3.client(), catalog, 1 + r.nextInt(200_000), 1 + r.nextInt(30));
        var delta = stager.stage("restore-" + seed, resolution, history.keyAttributes());

        // Then base items outside the skip set plus the delta's final images equal the brute-force image
        SkipKeys skip =
                SkipKeys.read(s3.client().getObject(b -> b.bucket("vault").key(delta.skipKeys())), delta.keys());
        var restored = new TreeMap<String, Map<String, AttributeValue>>();
        var base =
                catalog.findBackup("000000000000", "us-east-1", table, "base").orElseThrow();
        for (ManifestFile f : base.files()) {
            for (ExportLine line : read(f)) {
                if (!skip.contains(KeyHash.of(line.item(), history.keyAttributes()))) {
                    restored.put(ItemDigests.key(line.item(), history.keyAttributes()), line.item());
                }
            }
        }
        for (ManifestFile f : delta.files()) {
            for (ExportLine line : read(f)) {
                assertThat(skip.contains(KeyHash.of(line.keys(), history.keyAttributes())))
                        .isTrue();
                if (!line.isDelete()) {
                    restored.put(ItemDigests.key(line.keys(), history.keyAttributes()), line.newImage());
                }
            }
        }
        var expected = history.imageBefore(PitrCoverage.micros(t) + SECOND);
        assertThat(digests(restored)).isEqualTo(digests(expected));
        assertThat(stager.find("restore-" + seed)).isPresent();

        // and the same delta built in 1 to 6 parts of the key-hash space, each from its input read back
        // as a replica reads it, then merged, is the same delta: the same lines, the same skip keys
        int parts = 1 + r.nextInt(6);
        var input = Json.mapper()
                .readValue(Json.toBytes(DeltaInput.of(resolution, history.keyAttributes())), DeltaInput.class);
        var built = new ArrayList<DeltaStager.StagedDelta>();
        for (int p = 0; p < parts; p++) {
            var part = stager.stagePart("parts-" + seed + "/part-" + p + "/", input, new KeyRange(p, parts));
            for (ManifestFile f : part.files()) {
                for (ExportLine line : read(f)) {
                    assertThat(KeyRange.partOf(KeyHash.of(line.keys(), history.keyAttributes()), parts))
                            .as("part %d of %d holds only its own keys", p, parts)
                            .isEqualTo(p);
                }
            }
            built.add(part);
        }
        var merged = stager.merge("merged-" + seed, built);
        assertThat(merged.puts()).isEqualTo(delta.puts());
        assertThat(merged.deletes()).isEqualTo(delta.deletes());
        assertThat(merged.changesRead()).isEqualTo(delta.changesRead());
        assertThat(bytes(merged.skipKeys())).isEqualTo(bytes(delta.skipKeys()));
        assertThat(deltaLines(merged)).isEqualTo(deltaLines(delta));
        assertThat(stager.find("merged-" + seed)).contains(merged);

        // and the copy staged for ImportTable holds exactly that image, or the part a filter selects
        var importer = new ImportStager(s3.client(), catalog, 1 + r.nextInt(50));
        var staged = importer.stage("restore-" + seed, base, delta, null, history.keyAttributes());
        assertThat(digests(readStaged(staged))).isEqualTo(digests(expected));
        assertThat(staged.items()).isEqualTo(expected.size());
        var filter = RecordFilter.compile(
                new Scope.Records(
                        List.of(new Scope.KeyFilter(
                                new Scope.Condition(null, "NotEqualTo", List.of("none")),
                                new Scope.Condition(null, "LessThan", List.of(String.valueOf(r.nextInt(40)))))),
                        null),
                KeySchema.of(history.keyAttributes(), List.of("S", "N")));
        var selected = importer.stage("restore-" + seed, base, delta, filter, history.keyAttributes());
        var expectedSelected = new TreeMap<String, Map<String, AttributeValue>>();
        expected.forEach((k, v) -> {
            if (filter.matches(v)) {
                expectedSelected.put(k, v);
            }
        });
        assertThat(digests(readStaged(selected))).isEqualTo(digests(expectedSelected));
    }

    /** Every object under the staged prefix, read as ImportTable reads them: one {"Item": ...} per line. */
    static Map<String, Map<String, AttributeValue>> readStaged(ImportStager.Staged staged) {
        var items = new TreeMap<String, Map<String, AttributeValue>>();
        int files = 0;
        for (var object : s3.client()
                .listObjectsV2(b -> b.bucket(staged.bucket()).prefix(staged.prefix()))
                .contents()) {
            files++;
            assertThat(object.key()).endsWith(".json.gz");
            try (var reader = new DataFileReader(
                    object.key(),
                    s3.client().getObject(b -> b.bucket(staged.bucket()).key(object.key())),
                    null)) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    assertThat(line.item()).as("an Item line").isNotNull();
                    String key = ItemDigests.key(line.item(), List.of("pk", "sk"));
                    assertThat(items.put(key, line.item())).as("each key once").isNull();
                }
            }
        }
        assertThat(files).isEqualTo(staged.files());
        return items;
    }

    /** @param slices key slices per data file, or 0: files of one gzip member, as native exports */
    @org.junit.jupiter.api.Test
    void aPartReadsOnlyTheKeySlicesOfItsRangeAndRefusesASliceWhoseLinesDifferFromItsManifest() throws Exception {
        // Given a change log cut in 16 key slices per file, and part 0 of 4 of its delta staged
        String table = "sliced";
        var history = new RandomHistory(404, RandomItems.Shape.simple(), 40, 400, T0, 120 * SECOND);
        var backup = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", table, "base", 7);
        try (var part = backup.openPart()) {
            history.base().forEach(part::write);
        }
        backup.finish(TableDescriptions.ordersWithGsi(), List.of(), null, instant(T0), null);
        writeExport(table, "x0", history, T0, T0 + 125 * SECOND, false, 16);
        var resolution = PitrCoverage.of(
                        catalog.listBackups("000000000000", "us-east-1", table),
                        catalog.listExports("000000000000", "us-east-1", table),
                        Instant.now())
                .resolve(instant(T0 + 100 * SECOND))
                .orElseThrow();
        var input = DeltaInput.of(resolution, history.keyAttributes());
        var stager = new DeltaStager(s3.client(), catalog, 1 << 20, 7);
        var range = new KeyRange(0, 4);
        var before = stager.stagePart("sliced/before/", input, range);

        // When every byte of every file outside the part's slices is overwritten (so no whole file passes its MD5)
        var export = resolution.exports().get(0);
        int[] mine = range.sliceSpan(16);
        for (ManifestFile f : catalog.exportFiles(export)) {
            byte[] bytes = bytes(f.dataFileS3Key());
            var kept = f.span(mine[0], mine[1]);
            for (int i = 0; i < bytes.length; i++) {
                if (i < kept.offset() || i >= kept.offset() + kept.length()) {
                    bytes[i] = (byte) 0x5a;
                }
            }
            s3.client().putObject(b -> b.bucket("vault").key(f.dataFileS3Key()), RequestBody.fromBytes(bytes));
        }
        var after = stager.stagePart("sliced/after/", input, range);

        // Then the part builds the same delta as before: it read none of the damaged bytes
        assertThat(after.puts() + after.deletes()).isPositive().isEqualTo(before.puts() + before.deletes());
        assertThat(deltaLines(after)).isEqualTo(deltaLines(before));
        assertThat(bytes(after.skipKeys())).isEqualTo(bytes(before.skipKeys()));
        assertThat(after.changesRead())
                .isEqualTo(before.changesRead())
                .isEqualTo(history.writesIn(T0, T0 + 125 * SECOND, false).size());
        // and a planner that reads whole files finds them damaged
        assertThatThrownBy(() -> stager.stage("sliced-whole", input)).isInstanceOf(CorruptDataFileException.class);

        // and when a file's manifest says its slices hold a line more than they do, the part refuses it, naming it
        String manifestKey = layout.exportPrefix("000000000000", "us-east-1", table, "x0") + VaultLayout.MANIFEST_FILES;
        var lines = new StringBuilder();
        String damaged = null;
        for (ManifestFile f : catalog.exportFiles(export)) {
            var slices = new ArrayList<>(f.keySlices());
            if (damaged == null && f.span(mine[0], mine[1]).items() > 0) {
                damaged = f.dataFileS3Key();
                var first = slices.get(mine[0]);
                slices.set(mine[0], new ManifestFile.KeySlice(first.bytes(), first.items() + 1));
            }
            lines.append(Json.toString(
                            new ManifestFile(f.itemCount(), f.md5Checksum(), f.etag(), f.dataFileS3Key(), slices)))
                    .append('\n');
        }
        s3.client().putObject(b -> b.bucket("vault").key(manifestKey), RequestBody.fromString(lines.toString()));
        assertThat(damaged).isNotNull();
        assertThatThrownBy(() -> stager.stagePart("sliced/miscounted/", input, range))
                .isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining(damaged)
                .hasMessageContaining("manifest says");
    }

    static void writeExport(
            String table, String id, RandomHistory history, long from, long to, boolean compacted, int slices) {
        var writer = new IncrementalExportWriter(
                s3.client(), layout, "000000000000", "us-east-1", table, id, instant(from), instant(to), 5, compacted);
        if (slices > 0) {
            writer.keySlices(KeyRange.slicer(history.keyAttributes(), slices));
        }
        var lines = history.writesIn(from, to, compacted);
        try (var part = writer.openPart()) {
            for (RandomHistory.Write w : lines) {
                part.write(ExportLine.change(w.keys(), w.oldImage(), w.newImage(), w.micros()));
            }
        }
        writer.finish();
    }

    static byte[] bytes(String key) {
        return s3.client().getObjectAsBytes(b -> b.bucket("vault").key(key)).asByteArray();
    }

    /** A staged delta's lines, by key: the final image's digest, or "deleted". */
    static TreeMap<String, String> deltaLines(DeltaStager.StagedDelta delta) {
        var lines = new TreeMap<String, String>();
        for (ManifestFile f : delta.files()) {
            for (ExportLine line : read(f)) {
                String key = ItemDigests.key(line.keys(), List.of("pk", "sk"));
                String value = line.isDelete() ? "deleted" : ItemDigests.digest(line.newImage());
                assertThat(lines.put(key, value)).as("each key once").isNull();
            }
        }
        return lines;
    }

    static List<ExportLine> read(ManifestFile f) {
        var lines = new ArrayList<ExportLine>();
        try (var reader = new DataFileReader(
                f.dataFileS3Key(),
                s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                f.md5Checksum())) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                lines.add(line);
            }
        }
        return lines;
    }

    static TreeMap<String, String> digests(Map<String, Map<String, AttributeValue>> image) {
        var d = new TreeMap<String, String>();
        image.forEach((k, v) -> d.put(k, ItemDigests.digest(v)));
        return d;
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(micros / SECOND, (micros % SECOND) * 1_000);
    }
}
