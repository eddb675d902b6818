package io.dynarestore.exporter.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.work.ExportDispatched;
import io.dynarestore.core.TableDescriptions;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Granular-recovery CSV objects written to S3Proxy by multipart upload. */
class CsvExportIT {

    static S3Server s3;
    static Backup backup;
    static RandomItems items = new RandomItems(77, RandomItems.Shape.simple());
    static final int COUNT = 30_000;

    @BeforeAll
    static void start() {
        s3 = S3Server.start("vault");
        var writer = new BackupWriter(
                s3.client(), new VaultLayout("vault", ""), "000000000000", "us-east-1", "orders", "b", 4_000);
        try (var part = writer.openPart()) {
            items.items(COUNT).forEach(part::write);
        }
        backup = writer.finish(TableDescriptions.ordersWithGsi(), List.of(), null, Instant.now(), null);
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    static RecordFilter filter(String prefix) {
        return RecordFilter.compile(
                new Scope.Records(
                        List.of(new Scope.KeyFilter(new Scope.Condition("BeginsWith", List.of(prefix)), null)),
                        List.of()),
                KeySchema.of(List.of("pk", "sk"), List.of("S", "N")));
    }

    @Test
    void exportsExactlyTheMatchingItemsAsOneCsvObjectWithItsSizeAndChecksum() throws Exception {
        // When the items whose partition key begins with p1 are exported (in parts of 5 MB)
        var summary = new CsvExport(s3.client(), S3Upload.MIN_PART)
                .export(
                        backup,
                        filter("p1"),
                        List.of("pk", "sk"),
                        5_000_000,
                        "vault",
                        "_exports/r1/orders.csv",
                        n -> {});

        // Then the object holds exactly those items, and the summary its size and SHA-256
        byte[] object = s3.client()
                .getObjectAsBytes(b -> b.bucket("vault").key("_exports/r1/orders.csv"))
                .asByteArray();
        var expected = items.items(COUNT).stream()
                .filter(filter("p1")::matches)
                .map(ConsoleCsvTest::withoutEmptyStrings)
                .toList();
        assertThat(summary.items()).isEqualTo(expected.size());
        assertThat(summary.capped()).isFalse();
        assertThat(summary.bytes()).isEqualTo(object.length);
        assertThat(summary.sha256())
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(object)));
        assertThat(ItemDigests.of(ConsoleCsvTest.read(new String(object, StandardCharsets.UTF_8)), List.of("pk", "sk")))
                .isEqualTo(ItemDigests.of(expected, List.of("pk", "sk")));
    }

    @Test
    void writesAFileOfSeveralPartsWholeAndInOrder() {
        // When every item is exported in 5 MB parts
        var summary = new CsvExport(s3.client(), S3Upload.MIN_PART)
                .export(backup, null, List.of("pk", "sk"), 5_000_000, "vault", "_exports/r3/orders.csv", n -> {});

        // Then the object spans several parts and holds every item once
        assertThat(summary.bytes()).isGreaterThan(2L * S3Upload.MIN_PART);
        String csv = s3.client()
                .getObjectAsBytes(b -> b.bucket("vault").key("_exports/r3/orders.csv"))
                .asUtf8String();
        assertThat(ItemDigests.of(ConsoleCsvTest.read(csv), List.of("pk", "sk")))
                .isEqualTo(ItemDigests.of(
                        items.items(COUNT).stream()
                                .map(ConsoleCsvTest::withoutEmptyStrings)
                                .toList(),
                        List.of("pk", "sk")));
    }

    @Test
    void stopsAtTheCapAndSaysSo() {
        // When a cap of 1,000 stops an export of every item
        var summary = new CsvExport(s3.client(), S3Upload.MIN_PART)
                .export(backup, null, List.of("pk", "sk"), 1_000, "vault", "_exports/r2/orders.csv", n -> {});

        // Then the file has the first 1,000 items and the summary says it was cut short
        assertThat(summary.items()).isEqualTo(1_000);
        assertThat(summary.capped()).isTrue();
        String csv = s3.client()
                .getObjectAsBytes(b -> b.bucket("vault").key("_exports/r2/orders.csv"))
                .asUtf8String();
        assertThat(ConsoleCsvTest.read(csv)).hasSize(1_000);
    }

    /**
     * Seeded splits of the 8 data files into 2 to 5 contiguous ranges (some empty), with and without
     * a filter, uncapped or capped inside a part: the merged file must be the one-pass file, byte
     * for byte.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void aSplitExportMergedFromItsPartsIsByteForByteTheFileOfOnePass(int seed) {
        // Given a split of the backup's files into contiguous ranges, a filter or none, and a cap
        var random = new Random(seed);
        int files = backup.files().size();
        int parts = 2 + random.nextInt(4);
        int[] cuts = new int[parts + 1];
        cuts[parts] = files;
        for (int p = 1; p < parts; p++) {
            cuts[p] = random.nextInt(files + 1);
        }
        boolean cutInside = seed % 3 == 2; // capped inside a part after a full one: unfiltered
        if (cutInside) {
            cuts[1] = 1 + random.nextInt(files - 1); // part 0 has rows, and so has what follows
        }
        Arrays.sort(cuts, 1, parts);
        RecordFilter filter = seed % 2 == 0 && !cutInside ? filter("p1") : null;
        long cap = switch (seed % 3) {
            case 0 -> 5_000_000;
            case 1 -> 1 + random.nextInt(40); // the first rows only
            default -> (long) cuts[1] * 4_000 + 1 + random.nextInt(20); // a few rows after part 0's
        };
        var export = new CsvExport(s3.client(), S3Upload.MIN_PART);
        var keys = List.of("pk", "sk");
        String staging = "_staging/split-" + seed + "/export-parts/";

        // When each part is exported and staged, and then merged
        var one = export.export(backup, filter, keys, cap, "vault", "_exports/one-" + seed + ".csv", n -> {});
        long staged = 0;
        for (int p = 0; p < parts; p++) {
            var split = new ExportDispatched.Split(p, parts, cuts[p], cuts[p + 1], staging);
            staged += new SplitExport(s3.client(), S3Upload.MIN_PART)
                    .exportPart(backup, split, filter, keys, cap, "vault")
                    .rows();
        }
        var merged = new SplitExport(s3.client(), S3Upload.MIN_PART)
                .merge("vault", "_exports/merged-" + seed + ".csv", staging, parts, keys, cap, n -> {});

        // Then the merged file is the one-pass file, and the summaries agree
        byte[] expected = object("_exports/one-" + seed + ".csv");
        byte[] actual = object("_exports/merged-" + seed + ".csv");
        assertThat(new String(actual, StandardCharsets.UTF_8).lines().findFirst())
                .isEqualTo(new String(expected, StandardCharsets.UTF_8).lines().findFirst());
        assertThat(actual).isEqualTo(expected);
        assertThat(merged.items()).isEqualTo(one.items()).isLessThanOrEqualTo(staged);
        assertThat(merged.capped()).isEqualTo(one.capped());
        assertThat(merged.sha256()).isEqualTo(one.sha256());
        assertThat(merged.bytes()).isEqualTo(one.bytes());
        if (!one.capped()) {
            assertThat(merged.matching()).isEqualTo(one.matching());
        } else {
            assertThat(merged.matching()).isGreaterThan(cap);
        }
    }

    @Test
    void aSplitOfPartsOverFiveMegabytesIsAssembledByS3IntoTheFileOfOnePass() {
        // Given the backup (listing its attributes) in two parts of half its files each, over 5 MiB
        var splits = new SplitExport(s3.client(), S3Upload.MIN_PART);
        var keys = List.of("pk", "sk");
        int files = backup.files().size();
        String staging = "_staging/copies/export-parts/";
        var first = splits.exportPart(
                backup, new ExportDispatched.Split(0, 2, 0, files / 2, staging), null, keys, 5_000_000, "vault");
        var second = splits.exportPart(
                backup, new ExportDispatched.Split(1, 2, files / 2, files, staging), null, keys, 5_000_000, "vault");
        assertThat(first.csv()).isTrue();
        assertThat(first.bytes()).as("S3 copies it as a part").isGreaterThanOrEqualTo(S3Upload.MIN_PART);
        assertThat(ServerSideConcat.fits(List.of(first.bytes(), second.bytes())))
                .isTrue();

        // When they are merged
        var merged = splits.merge("vault", "_exports/copies.csv", staging, 2, keys, 5_000_000, n -> {});

        // Then the file is the one-pass file, and the summary its size and hash
        var one = new CsvExport(s3.client(), S3Upload.MIN_PART)
                .export(backup, null, keys, 5_000_000, "vault", "_exports/copies-one.csv", n -> {});
        assertThat(object("_exports/copies.csv")).isEqualTo(object("_exports/copies-one.csv"));
        assertThat(merged).usingRecursiveComparison().ignoringFields("key").isEqualTo(one);
    }

    @Test
    void aCapInsideAPartKeepsOnlyTheColumnsOfTheRowsKept() {
        // Given a backup of 3 files of 2 items, each item with an attribute of its own
        var writer = new BackupWriter(
                s3.client(), new VaultLayout("vault", ""), "000000000000", "us-east-1", "orders", "own", 2);
        try (var part = writer.openPart()) {
            for (int i = 0; i < 6; i++) {
                part.write(Map.of(
                        "pk",
                        AttributeValue.fromS("p" + i),
                        "sk",
                        AttributeValue.fromN(String.valueOf(i)),
                        "only" + i,
                        AttributeValue.fromS("x")));
            }
        }
        var own = writer.finish(TableDescriptions.ordersWithGsi(), List.of(), null, Instant.now(), null);
        var export = new CsvExport(s3.client(), S3Upload.MIN_PART);
        var keys = List.of("pk", "sk");
        String staging = "_staging/own/export-parts/";

        // When it is exported in two parts (files [0, 1) and [1, 3)) with a cap of 3 items
        new SplitExport(s3.client(), S3Upload.MIN_PART)
                .exportPart(own, new ExportDispatched.Split(0, 2, 0, 1, staging), null, keys, 3, "vault");
        new SplitExport(s3.client(), S3Upload.MIN_PART)
                .exportPart(own, new ExportDispatched.Split(1, 2, 1, 3, staging), null, keys, 3, "vault");
        var merged = new SplitExport(s3.client(), S3Upload.MIN_PART)
                .merge("vault", "_exports/own.csv", staging, 2, keys, 3, n -> {});

        // Then the header has the columns of the first 3 items only, as one pass gives
        export.export(own, null, keys, 3, "vault", "_exports/own-one.csv", n -> {});
        String csv = new String(object("_exports/own.csv"), StandardCharsets.UTF_8);
        assertThat(csv.lines().findFirst().orElseThrow().split(",")).hasSize(5).startsWith("pk (S)", "sk (N)");
        assertThat(object("_exports/own.csv")).isEqualTo(object("_exports/own-one.csv"));
        assertThat(merged.items()).isEqualTo(3);
        assertThat(merged.capped()).isTrue();
    }

    @Test
    void aWholeExportUnderTheHeaderItsBackupListsIsTheFileTheSpoolWrites() {
        // Given the backup, whose metadata lists every attribute's types, and the same without them
        assertThat(backup.metadata().attributeTypes()).isNotEmpty();
        var unlisted = withTypes(null);
        var export = new CsvExport(s3.client(), S3Upload.MIN_PART);

        // When both are exported whole
        var known = export.export(backup, null, List.of("pk", "sk"), 5_000_000, "vault", "_exports/k.csv", n -> {});
        var spooled = export.export(unlisted, null, List.of("pk", "sk"), 5_000_000, "vault", "_exports/s.csv", n -> {});

        // Then the files are equal byte for byte, and so are the summaries
        assertThat(object("_exports/k.csv")).isEqualTo(object("_exports/s.csv"));
        assertThat(known).usingRecursiveComparison().ignoringFields("key").isEqualTo(spooled);
    }

    @Test
    void aBackupThatListsTooFewAttributeTypesIsExportedThroughTheSpoolAllTheSame() {
        // Given metadata that lists every attribute but a0 (as a wrong writer would)
        var types = new java.util.TreeMap<>(backup.metadata().attributeTypes());
        assertThat(types.remove("a0")).isNotNull();
        var wrong = withTypes(types);
        var export = new CsvExport(s3.client(), S3Upload.MIN_PART);

        // When it is exported whole
        var summary =
                export.export(wrong, null, List.of("pk", "sk"), 5_000_000, "vault", "_exports/wrong.csv", n -> {});

        // Then the file has every column and row, as the spool writes it
        export.export(withTypes(null), null, List.of("pk", "sk"), 5_000_000, "vault", "_exports/right.csv", n -> {});
        assertThat(object("_exports/wrong.csv")).isEqualTo(object("_exports/right.csv"));
        assertThat(summary.items()).isEqualTo(COUNT);
    }

    private static Backup withTypes(Map<String, List<String>> types) {
        return new Backup(
                backup.layout(), backup.metadata().withAttributeTypes(types), backup.summary(), backup.files());
    }

    @Test
    void aMergeWhosePartIsNotStagedFailsNamingThePartAndWritesNoFile() {
        // Given parts staged for 0 only
        var export = new CsvExport(s3.client(), S3Upload.MIN_PART);
        String staging = "_staging/missing/export-parts/";
        new SplitExport(s3.client(), S3Upload.MIN_PART)
                .exportPart(
                        backup,
                        new ExportDispatched.Split(0, 2, 0, 1, staging),
                        null,
                        List.of("pk", "sk"),
                        5_000_000,
                        "vault");

        // When the two parts are merged, Then the merge names part 1 and no object is written
        assertThatThrownBy(() -> new SplitExport(s3.client(), S3Upload.MIN_PART)
                        .merge("vault", "_exports/missing.csv", staging, 2, List.of("pk", "sk"), 5_000_000, n -> {}))
                .hasMessageContaining("part 1 of the export is not staged");
        assertThat(s3.client()
                        .listObjectsV2(b -> b.bucket("vault").prefix("_exports/missing"))
                        .contents())
                .isEmpty();
    }

    @Test
    void aMergeDeliveredAgainAfterItsPartsWereRemovedKnowsItMergedBefore() {
        // Given a split export merged, and its staging then removed (as the planner does at the end)
        var export = new CsvExport(s3.client(), S3Upload.MIN_PART);
        String staging = "_staging/again/export-parts/";
        var keys = List.of("pk", "sk");
        for (int p = 0; p < 2; p++) {
            new SplitExport(s3.client(), S3Upload.MIN_PART)
                    .exportPart(
                            backup,
                            new ExportDispatched.Split(p, 2, p, p + 1, staging),
                            null,
                            keys,
                            5_000_000,
                            "vault");
        }
        assertThat(new SplitExport(s3.client(), S3Upload.MIN_PART).mergedBefore("vault", "_exports/again.csv", staging))
                .isFalse();
        new SplitExport(s3.client(), S3Upload.MIN_PART)
                .merge("vault", "_exports/again.csv", staging, 2, keys, 5_000_000, n -> {});
        assertThat(new SplitExport(s3.client(), S3Upload.MIN_PART).mergedBefore("vault", "_exports/again.csv", staging))
                .as("parts still there")
                .isFalse();
        for (var o : s3.client()
                .listObjectsV2(b -> b.bucket("vault").prefix(staging))
                .contents()) {
            s3.client().deleteObject(b -> b.bucket("vault").key(o.key()));
        }

        // Then a merge delivered again knows it, and one whose file was never written does not
        assertThat(new SplitExport(s3.client(), S3Upload.MIN_PART).mergedBefore("vault", "_exports/again.csv", staging))
                .isTrue();
        assertThat(new SplitExport(s3.client(), S3Upload.MIN_PART).mergedBefore("vault", "_exports/never.csv", staging))
                .isFalse();
    }

    @Test
    void aPartNamingFilesTheBackupDoesNotHaveIsRefused() {
        var export = new CsvExport(s3.client(), S3Upload.MIN_PART);
        int files = backup.files().size();
        assertThatThrownBy(() -> new SplitExport(s3.client(), S3Upload.MIN_PART)
                        .exportPart(
                                backup,
                                new ExportDispatched.Split(1, 2, 2, files + 1, "_staging/x/export-parts/"),
                                null,
                                List.of("pk", "sk"),
                                10,
                                "vault"))
                .hasMessageContaining("names data files [2, " + (files + 1) + ")")
                .hasMessageContaining("has " + files);
    }

    private static byte[] object(String key) {
        return s3.client().getObjectAsBytes(b -> b.bucket("vault").key(key)).asByteArray();
    }
}
