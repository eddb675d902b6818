package io.dynarestore.core.vault;

import java.util.List;

/** A complete backup in the vault: its metadata, its summary manifest and its data files. */
public record Backup(VaultLayout layout, BackupMetadata metadata, ManifestSummary summary, List<ManifestFile> files) {

    public String backupId() {
        return metadata.backupId();
    }

    public long itemCount() {
        return summary.itemCount() == null ? 0 : summary.itemCount();
    }
}
