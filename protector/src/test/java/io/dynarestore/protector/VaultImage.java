package io.dynarestore.protector;

import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.testkit.ItemDigests;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The image of a table at a second as the vault holds it, read by brute force: the base backup the
 * coverage rules pick, then every change from its time to the end of the second, in time order.
 * What a restore to that second would write, without the restore path (the end-to-end tests run that).
 */
public final class VaultImage {

    private final S3Client s3;
    private final VaultCatalog catalog;

    public VaultImage(S3Client s3, VaultCatalog catalog) {
        this.s3 = s3;
        this.catalog = catalog;
    }

    public PitrCoverage coverage(String account, String region, String table) {
        return PitrCoverage.of(
                catalog.listBackups(account, region, table),
                catalog.listExports(account, region, table),
                Instant.now());
    }

    /** Key to item digest at second {@code t}, or empty when the vault cannot restore {@code t}. */
    public Optional<TreeMap<String, String>> at(
            String account, String region, String table, Instant t, List<String> keyAttributes) {
        var resolution = coverage(account, region, table).resolve(t);
        if (resolution.isEmpty()) {
            return Optional.empty();
        }
        var base = catalog.findBackup(
                        account, region, table, resolution.get().base().backupId())
                .orElseThrow();
        var items = new LinkedHashMap<String, Map<String, AttributeValue>>();
        for (ManifestFile f : base.files()) {
            for (ExportLine line : read(base.dataBucket(), f)) {
                items.put(ItemDigests.key(line.item(), keyAttributes), line.item());
            }
        }
        long from = micros(base.metadata().takenAt());
        long until = micros(t) + 1_000_000L;
        var changes = new ArrayList<ExportLine>();
        for (ExportMetadata e : resolution.get().exports()) {
            for (ManifestFile f : catalog.exportFiles(e)) {
                for (ExportLine line : read(catalog.exportBucket(e), f)) {
                    if (line.writeTimestampMicros() >= from && line.writeTimestampMicros() < until) {
                        changes.add(line);
                    }
                }
            }
        }
        changes.sort(Comparator.comparingLong(ExportLine::writeTimestampMicros));
        for (ExportLine c : changes) {
            String key = ItemDigests.key(c.keys(), keyAttributes);
            if (c.newImage() == null) {
                items.remove(key);
            } else {
                items.put(key, c.newImage());
            }
        }
        return Optional.of(ItemDigests.of(items.values(), keyAttributes));
    }

    private List<ExportLine> read(String bucket, ManifestFile f) {
        var lines = new ArrayList<ExportLine>();
        try (var reader = new DataFileReader(
                f.dataFileS3Key(), s3.getObject(b -> b.bucket(bucket).key(f.dataFileS3Key())), f.md5Checksum())) {
            ExportLine line;
            while ((line = reader.next()) != null) {
                lines.add(line);
            }
        }
        return lines;
    }

    static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }
}
