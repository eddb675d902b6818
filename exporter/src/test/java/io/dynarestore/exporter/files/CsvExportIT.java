package io.dynarestore.exporter.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Scope;
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
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
}
