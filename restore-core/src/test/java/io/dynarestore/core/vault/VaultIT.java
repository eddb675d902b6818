package io.dynarestore.core.vault;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.core.TableDescriptions;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.s3.S3Client;

class VaultIT {

    static S3Server s3;
    static VaultLayout layout = new VaultLayout("vault", "");
    static final TableDescription TABLE = TableDescriptions.ordersWithGsi();

    @BeforeAll
    static void startS3() {
        s3 = S3Server.start("vault");
    }

    @AfterAll
    static void stopS3() {
        s3.close();
    }

    @Test
    void listsEveryAttributeOfTheItemsWithItsTypesWhenEveryPartSawAllOfItsItems() {
        // Given 2,000 random items written by two parts
        var items = new RandomItems(8, RandomItems.Shape.simple());
        var writer = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "typed", "b-types", 700);
        try (var p1 = writer.openPart();
                var p2 = writer.openPart()) {
            for (int i = 0; i < 2_000; i++) {
                (i % 2 == 0 ? p1 : p2).write(items.item(i));
            }
        }
        Instant takenAt = Instant.parse("2026-11-30T10:00:00Z");
        writer.finish(TABLE, List.of(), null, takenAt, takenAt.plus(Duration.ofDays(7)));

        // When its metadata is read back
        var backup = new VaultCatalog(s3.client(), layout)
                .findBackup("000000000000", "us-east-1", "typed", "b-types")
                .orElseThrow();

        // Then it lists exactly the names and console types of the items' attributes
        var expected = new java.util.TreeMap<String, java.util.TreeSet<String>>();
        for (int i = 0; i < 2_000; i++) {
            items.item(i)
                    .forEach((name, value) -> expected.computeIfAbsent(name, n -> new java.util.TreeSet<>())
                            .add(io.dynarestore.core.csv.ConsoleCsv.typeOf(value)));
        }
        var listed = new java.util.TreeMap<String, java.util.TreeSet<String>>();
        backup.metadata().attributeTypes().forEach((name, types) -> listed.put(name, new java.util.TreeSet<>(types)));
        assertThat(listed).isEqualTo(expected);
    }

    @Test
    void listsNoAttributeTypesWhereSomeItemsWereNotSeen() {
        var items = new RandomItems(9, RandomItems.Shape.simple());
        Instant takenAt = Instant.parse("2026-11-30T10:00:00Z");

        // a part that dropped its open file (a failed Scan) saw items that are not in the backup
        var dropped = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "typed", "b-dropped", 700);
        try (var p = dropped.openPart()) {
            p.write(items.item(1));
            p.discard();
        }
        assertThat(dropped.finish(TABLE, List.of(), null, takenAt, null)
                        .metadata()
                        .attributeTypes())
                .isNull();

        // a backup resumed from an earlier attempt's files did not see their items
        var first = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "typed", "b-resumed", 1);
        BackupWriter.Uploaded earlier;
        try (var p = first.openPart()) {
            p.write(items.item(2));
            p.write(items.item(3));
            earlier = p.uploaded();
        }
        var resumed = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "typed", "b-resumed", 1)
                .adopt(earlier);
        try (var p = resumed.openPart()) {
            p.write(items.item(4));
        }
        assertThat(resumed.finish(TABLE, List.of(), null, takenAt, null)
                        .metadata()
                        .attributeTypes())
                .isNull();

        // more attribute names than the metadata lists
        var wide = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "typed", "b-wide", 1_000);
        try (var p = wide.openPart()) {
            for (int i = 0; i <= BackupMetadata.MAX_ATTRIBUTE_TYPES / 100; i++) {
                var item = new java.util.HashMap<>(items.item(100 + i));
                for (int a = 0; a < 100; a++) {
                    item.put("w" + i + "_" + a, AttributeValue.fromS("x"));
                }
                p.write(item);
            }
        }
        assertThat(wide.finish(TABLE, List.of(), null, takenAt, null).metadata().attributeTypes())
                .isNull();

        // a part never closed
        var open = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "typed", "b-open", 700);
        open.openPart().write(items.item(5));
        assertThat(open.finish(TABLE, List.of(), null, takenAt, null).metadata().attributeTypes())
                .isNull();
    }

    @Test
    void writesABackupInTheNativeExportLayoutAndReadsEveryItemBack() {
        // Given 2,500 random items written by two parts, cut every 1,000 items
        var items = new RandomItems(7, RandomItems.Shape.simple());
        var writer = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "orders", "b-1", 1_000);
        try (var p1 = writer.openPart();
                var p2 = writer.openPart()) {
            for (int i = 0; i < 2_500; i++) {
                (i % 2 == 0 ? p1 : p2).write(items.item(i));
            }
        }
        Instant takenAt = Instant.parse("2026-11-30T10:00:00Z");
        writer.finish(TABLE, List.of(), null, takenAt, takenAt.plus(Duration.ofDays(7)));

        // When the catalog finds it and its data files are read
        var catalog = new VaultCatalog(s3.client(), layout);
        Backup backup =
                catalog.findBackup("000000000000", "us-east-1", "orders", "b-1").orElseThrow();
        var read = new ArrayList<Map<String, AttributeValue>>();
        for (ManifestFile f : backup.files()) {
            try (var reader = new DataFileReader(
                    f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                    f.md5Checksum())) {
                ExportLine line;
                while ((line = reader.next()) != null) {
                    read.add(line.item());
                }
                assertThat(reader.lines()).isEqualTo(f.itemCount());
            }
        }

        // Then the manifests describe a FULL_EXPORT of 2,500 items in files of at most 1,000
        assertThat(backup.summary().exportType()).isEqualTo("FULL_EXPORT");
        assertThat(backup.summary().outputFormat()).isEqualTo("DYNAMODB_JSON");
        assertThat(backup.summary().itemCount()).isEqualTo(2_500);
        assertThat(backup.files())
                .hasSize(4)
                .allSatisfy(f -> assertThat(f.itemCount()).isLessThanOrEqualTo(1_000));
        assertThat(backup.metadata().tableDescription()).isEqualTo(TABLE);
        // and every item comes back exactly
        assertThat(read).containsExactlyInAnyOrderElementsOf(items.items(2_500));
        // and the catalog lists it with its expiry
        assertThat(catalog.listBackups("000000000000", "us-east-1", "orders"))
                .singleElement()
                .satisfies(b -> {
                    assertThat(b.backupId()).isEqualTo("b-1");
                    assertThat(b.itemCount()).isEqualTo(2_500);
                    assertThat(b.expiresAt()).isEqualTo(takenAt.plus(Duration.ofDays(7)));
                });
    }

    /**
     * Random change times over a few seconds (ordinals 0 and 999,999 among them), each line's bytes
     * made from cut members or from a generator in one part: each reads back with its time and keys.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2, 3, 4, 5})
    void writesEachChangesMicrosecondsExactlyWhicheverWayItsLineIsMade(int seed) {
        // Given changes at random microseconds of five seconds, in time order
        var random = new java.util.Random(seed);
        Instant from = Instant.parse("2026-12-02T10:00:00Z");
        long base = from.getEpochSecond() * 1_000_000L;
        var micros = new ArrayList<Long>(List.of(base, base + 999_999, base + 4_000_000 + 999_999));
        for (int i = 0; i < 300; i++) {
            micros.add(base + random.nextLong(5_000_000));
        }
        micros.sort(null);
        var bodies = new ChangeBodies();
        String id = "inc-" + seed;
        var writer = new IncrementalExportWriter(
                s3.client(), layout, "000000000000", "us-east-1", "changes", id, from, from.plusSeconds(5), 100);
        try (var part = writer.openPart()) {
            for (int i = 0; i < micros.size(); i++) {
                var keys = Map.of("pk", AttributeValue.fromS("k" + i));
                var image = Map.of("pk", AttributeValue.fromS("k" + i), "v", AttributeValue.fromN("" + i));
                if (random.nextBoolean()) {
                    part.writeChange(micros.get(i), bodies.encode(keys, null, image), 10);
                } else {
                    part.write(ExportLine.change(keys, null, image, micros.get(i)));
                }
            }
        }
        var export = writer.finish();

        // When its data files are read back
        var catalog = new VaultCatalog(s3.client(), layout);
        var read = new ArrayList<ExportLine>();
        for (ManifestFile f : catalog.exportFiles(export)) {
            try (var reader = new DataFileReader(
                    f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                    f.md5Checksum())) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    read.add(line);
                }
            }
        }

        // Then every line has its own time, keys and image (the manifest's files come in any order)
        assertThat(read).hasSize(micros.size());
        for (ExportLine line : read) {
            int i = Integer.parseInt(line.keys().get("pk").s().substring(1));
            assertThat(line.writeTimestampMicros()).as("k" + i).isEqualTo(micros.get(i));
            assertThat(line.newImage().get("v").n()).isEqualTo("" + i);
        }
    }

    @Test
    void writesOneJsonObjectPerLineWithAnItemMember() throws Exception {
        var writer = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "lines", "b-2", 10);
        try (var part = writer.openPart()) {
            part.write(Map.of("pk", AttributeValue.fromS("a")));
            part.write(Map.of("pk", AttributeValue.fromS("b")));
        }
        Backup backup = writer.finish(TABLE, List.of(), null, Instant.now(), null);
        byte[] gz = s3.client()
                .getObjectAsBytes(
                        b -> b.bucket("vault").key(backup.files().get(0).dataFileS3Key()))
                .asByteArray();
        String text = new String(new GZIPInputStream(new ByteArrayInputStream(gz)).readAllBytes());
        assertThat(text).isEqualTo("{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n{\"Item\":{\"pk\":{\"S\":\"b\"}}}\n");
    }

    @Test
    void startsEveryLineWithThePartitionKeyThenTheSortKeyWhateverOrderTheScanGaveTheAttributesIn() throws Exception {
        // Given random items whose attributes come in a scrambled order (the keys anywhere, even last), one of
        // them with a nested map holding an attribute named like the partition key
        var items = new RandomItems(11, RandomItems.Shape.simple());
        var random = new java.util.Random(11);
        var written = new ArrayList<Map<String, AttributeValue>>();
        for (int i = 0; i < 200; i++) {
            var item = items.item(i);
            var names = new ArrayList<>(item.keySet());
            java.util.Collections.shuffle(names, random);
            var scrambled = new java.util.LinkedHashMap<String, AttributeValue>();
            if (i == 0) {
                scrambled.put("nested", AttributeValue.fromM(Map.of("pk", AttributeValue.fromS("inner"))));
            }
            names.forEach(n -> scrambled.put(n, item.get(n)));
            written.add(scrambled);
        }

        // When a writer that knows the table's key schema writes them
        var writer = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "keyed", "b-keys", 1_000)
                .keysFirst(TABLE);
        try (var part = writer.openPart()) {
            written.forEach(part::write);
        }
        Backup backup = writer.finish(TABLE, List.of(), null, Instant.now(), null);

        // Then every line starts with pk, then sk, and reads back as the item it was
        String key = backup.files().get(0).dataFileS3Key();
        byte[] gz =
                s3.client().getObjectAsBytes(b -> b.bucket("vault").key(key)).asByteArray();
        String text = new String(new GZIPInputStream(new ByteArrayInputStream(gz)).readAllBytes(), UTF_8);
        assertThat(text.split("\n"))
                .hasSize(200)
                .allSatisfy(line ->
                        assertThat(line).matches("\\{\"Item\":\\{\"pk\":\\{\"S\":\"p\\d+\"},\"sk\":\\{\"N\":.*"));
        var read = new ArrayList<Map<String, AttributeValue>>();
        try (var reader = new DataFileReader(
                key,
                s3.client().getObject(b -> b.bucket("vault").key(key)),
                backup.files().get(0).md5Checksum())) {
            ExportLine line;
            while ((line = reader.next()) != null) {
                read.add(line.item());
            }
        }
        assertThat(read).containsExactlyElementsOf(written);
    }

    @Test
    void doesNotListABackupWhoseBackupJsonIsMissing() {
        // Given data and manifests but no backup.json (a writer that died before finishing)
        S3Client client = s3.client();
        client.putObject(
                b -> b.bucket("vault")
                        .key(layout.backupPrefix("000000000000", "us-east-1", "half", "b-3")
                                + VaultLayout.MANIFEST_SUMMARY),
                RequestBody.fromString("{}"));

        // Then the catalog offers nothing
        var catalog = new VaultCatalog(client, layout);
        assertThat(catalog.listBackups("000000000000", "us-east-1", "half")).isEmpty();
        assertThat(catalog.findBackup("000000000000", "us-east-1", "half", "b-3"))
                .isEmpty();
    }

    @Test
    void refusesADataFileWhoseChecksumDoesNotMatchItsManifest() {
        var writer = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "sum", "b-4", 100);
        try (var part = writer.openPart()) {
            part.write(Map.of("pk", AttributeValue.fromS("a")));
        }
        Backup backup = writer.finish(TABLE, List.of(), null, Instant.now(), null);
        ManifestFile f = backup.files().get(0);
        assertThatThrownBy(() -> {
                    try (var reader = new DataFileReader(
                            f.dataFileS3Key(),
                            s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                            "AAAAAAAAAAAAAAAAAAAAAA==")) {
                        while (reader.next() != null) {
                            // read to the end, where the checksum is checked
                        }
                    }
                })
                .isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining("MD5");
    }

    @Test
    void refusesATruncatedDataFile() throws Exception {
        var writer = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "cut", "b-5", 5_000);
        var items = new RandomItems(3, RandomItems.Shape.simple());
        try (var part = writer.openPart()) {
            for (int i = 0; i < 3_000; i++) {
                part.write(items.item(i));
            }
        }
        Backup backup = writer.finish(TABLE, List.of(), null, Instant.now(), null);
        byte[] gz = s3.client()
                .getObjectAsBytes(
                        b -> b.bucket("vault").key(backup.files().get(0).dataFileS3Key()))
                .asByteArray();
        byte[] truncated = java.util.Arrays.copyOf(gz, gz.length / 2);
        assertThatThrownBy(() -> {
                    try (var reader = new DataFileReader("cut.json.gz", new ByteArrayInputStream(truncated), null)) {
                        while (reader.next() != null) {
                            // read until it breaks
                        }
                    }
                })
                .isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining("cut.json.gz");
    }

    /**
     * Changes of random keys (S, N and B, numbers equal as decimals among them) written into files
     * cut in key slices, by both ways of making a line: each slice, read alone by its byte range,
     * holds exactly its keys' lines, and the whole file reads back as one gzip file.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void writesEachChangeIntoTheKeySliceOfItsKeyAndEachSliceReadsBackAlone(int seed) throws Exception {
        // Given 500 changes of 60 random keys, in files of 100 lines cut in 2, 3, 16 or 64 slices
        var random = new java.util.Random(seed);
        int slices = new int[] {2, 3, 16, 64}[seed % 4];
        var keyAttributes = List.of("pk", "sk");
        var slicer = io.dynarestore.core.pitr.KeyRange.slicer(keyAttributes, slices);
        Instant from = Instant.parse("2026-12-07T10:00:00Z");
        long base = from.getEpochSecond() * 1_000_000L;
        var bodies = new ChangeBodies();
        var writer = new IncrementalExportWriter(
                        s3.client(),
                        layout,
                        "000000000000",
                        "us-east-1",
                        "sliced",
                        "s-" + seed,
                        from,
                        from.plusSeconds(5),
                        100)
                .keySlices(slicer);
        var written = new java.util.TreeMap<String, List<Integer>>();
        try (var part = writer.openPart()) {
            for (int i = 0; i < 500; i++) {
                int k = random.nextInt(60);
                var keys = new java.util.LinkedHashMap<String, AttributeValue>();
                keys.put(
                        "pk",
                        switch (k % 3) {
                            case 0 -> AttributeValue.fromS("k\u00e9\"" + k);
                            case 1 -> AttributeValue.fromN(k + (random.nextBoolean() ? ".0" : ""));
                            default ->
                                AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromUtf8String("b" + k));
                        });
                keys.put("sk", AttributeValue.fromN("" + (k % 7)));
                var image = new java.util.HashMap<>(keys);
                image.put("v", AttributeValue.fromN("" + i));
                long micros = base + i * 1_000L;
                if (random.nextBoolean()) {
                    part.writeChange(micros, bodies.encode(keys, null, image), 10);
                } else {
                    part.write(ExportLine.change(keys, null, image, micros));
                }
                written.computeIfAbsent(String.valueOf(k), x -> new ArrayList<>())
                        .add(i);
            }
        }
        var export = writer.finish();
        var catalog = new VaultCatalog(s3.client(), layout);
        var files = catalog.exportFiles(export);
        assertThat(files).hasSize(5);

        var whole = new java.util.TreeMap<String, List<Integer>>();
        for (ManifestFile f : files) {
            // When each file is read whole (its MD5 checked), then each slice alone by its range
            try (var reader = new DataFileReader(
                    f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                    f.md5Checksum())) {
                var inFile = new java.util.HashMap<String, Integer>();
                for (ExportLine line; (line = reader.next()) != null; ) {
                    int v = Integer.parseInt(line.newImage().get("v").n());
                    Integer previous = inFile.put(keyOf(line), v);
                    assertThat(previous == null || previous < v)
                            .as("a key's writes in one file in the order written")
                            .isTrue();
                    whole.computeIfAbsent(keyOf(line), x -> new ArrayList<>()).add(v);
                }
                assertThat(reader.lines()).isEqualTo(f.itemCount());
            }
            long size = s3.client()
                    .headObject(b -> b.bucket("vault").key(f.dataFileS3Key()))
                    .contentLength();
            assertThat(f.keySlices()).hasSize(slices);
            assertThat(f.span(0, slices - 1)).isEqualTo(new ManifestFile.SliceSpan(0, size, f.itemCount()));
            for (int s = 0; s < slices; s++) {
                var span = f.span(s, s);
                if (span.items() == 0) {
                    assertThat(span.length()).as("an empty slice has no member").isZero();
                    continue;
                }
                long inSlice = 0;
                try (var reader = new DataFileReader(
                        f.dataFileS3Key() + " slice " + s,
                        s3.client()
                                .getObject(b ->
                                        b.bucket("vault").key(f.dataFileS3Key()).range(span.httpRange())),
                        null)) {
                    for (ExportLine line; (line = reader.next()) != null; ) {
                        // Then every line of a slice is of a key of that slice
                        assertThat(slicer.sliceOf(line.keys()))
                                .as("slice of %s", line.keys())
                                .isEqualTo(s);
                        inSlice++;
                    }
                }
                assertThat(inSlice).isEqualTo(span.items());
            }
        }
        // and the whole files hold every change once (the manifest lists its files in any order)
        whole.values().forEach(versions -> versions.sort(null));
        assertThat(whole).isEqualTo(written);
    }

    private static String keyOf(ExportLine line) {
        var pk = line.keys().get("pk");
        String k = pk.s() != null
                ? pk.s().substring(3)
                : pk.n() != null
                        ? pk.n().replace(".0", "")
                        : pk.b().asUtf8String().substring(1);
        return k;
    }
}
