package io.dynarestore.core.vault;

import java.util.List;

/**
 * A complete backup: its metadata, its summary manifest and its data files. The files' keys are
 * keys in {@link #dataBucket()}: the vault's bucket, or the bucket of a native export registered
 * where it lies.
 */
public record Backup(VaultLayout layout, BackupMetadata metadata, ManifestSummary summary, List<ManifestFile> files) {

    public String backupId() {
        return metadata.backupId();
    }

    public long itemCount() {
        return summary.itemCount() == null ? 0 : summary.itemCount();
    }

    public String dataBucket() {
        return metadata.location() != null ? metadata.location().bucket() : layout.bucket();
    }
}
