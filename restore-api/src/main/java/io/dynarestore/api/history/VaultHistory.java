package io.dynarestore.api.history;

import io.dynarestore.core.codec.ItemEquality;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One table's vault as an item's history reads it: every data file read selectively, parsing only the
 * lines of the one key (found by a byte scan of each line's key), so that a history costs an inflate of
 * the files it reads and little more. A backup is read only until the key is found.
 */
final class VaultHistory implements HistoryVault {

    private final S3Client s3;
    private final VaultCatalog catalog;
    private final TableAt table;
    private final List<BackupSummary> backups;
    private final List<ExportMetadata> exports;
    private final List<String> keyNames;

    /** A table of the vault. */
    record TableAt(String account, String region, String name) {}

    /**
     * @param backups the table's unexpired backups and {@code exports} its change log, as the caller
     *                listed them once for the whole request
     */
    VaultHistory(
            S3Client s3,
            VaultCatalog catalog,
            TableAt table,
            List<BackupSummary> backups,
            List<ExportMetadata> exports,
            List<String> keyNames) {
        this.s3 = s3;
        this.catalog = catalog;
        this.table = table;
        this.backups = backups;
        this.exports = exports;
        this.keyNames = keyNames;
    }

    @Override
    public List<BackupSummary> backups() {
        return backups;
    }

    @Override
    public List<ExportMetadata> exports() {
        return exports;
    }

    @Override
    public Map<String, AttributeValue> imageIn(BackupSummary summary, Map<String, AttributeValue> key) {
        var backup = catalog.findBackup(table.account(), table.region(), table.name(), summary.backupId())
                .orElseThrow(() -> new IllegalStateException("backup " + summary.backupId() + " is gone"));
        var prefilter = KeyPrefilter.ofItems(keyNames, sameKey(key));
        for (ManifestFile f : backup.files()) {
            var found = new AtomicReference<Map<String, AttributeValue>>();
            read(backup.dataBucket(), f, prefilter, line -> {
                if (isKey(line.item(), key)) {
                    found.set(line.item());
                }
            });
            if (found.get() != null) {
                return found.get(); // a backup holds a key once
            }
        }
        return null;
    }

    @Override
    public void changesIn(ExportMetadata export, Map<String, AttributeValue> key, Consumer<ExportLine> sink) {
        var prefilter = KeyPrefilter.ofChanges(keyNames, sameKey(key));
        String bucket = catalog.exportBucket(export);
        for (ManifestFile f : catalog.exportFiles(export)) {
            read(bucket, f, prefilter, line -> {
                if (line.writeTimestampMicros() != null && isKey(line.keys(), key)) {
                    sink.accept(line);
                }
            });
        }
    }

    private KeyPrefilter.Test sameKey(Map<String, AttributeValue> key) {
        KeyHash wanted = KeyHash.of(key, keyNames);
        return k -> KeyHash.of(k, keyNames).equals(wanted);
    }

    private boolean isKey(Map<String, AttributeValue> image, Map<String, AttributeValue> key) {
        return image != null && keyNames.stream().allMatch(n -> ItemEquality.same(image.get(n), key.get(n)));
    }

    private void read(String bucket, ManifestFile f, KeyPrefilter prefilter, Consumer<ExportLine> sink) {
        var object = s3.getObject(b -> b.bucket(bucket).key(f.dataFileS3Key()));
        try (var reader = DataFileReader.selective(f.dataFileS3Key(), object, null, prefilter)) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                sink.accept(line);
            }
        }
    }
}
