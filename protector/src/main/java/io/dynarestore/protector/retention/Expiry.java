package io.dynarestore.protector.retention;

import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Retention of one table: a backup is deleted once it has been expired for {@code grace}; a
 * change-log export the capture wrote is deleted once it ends at or before the oldest backup kept
 * (it extends nothing), except the latest, which holds the capture's checkpoint. The marker that
 * lists a thing ({@code backup.json}, {@code export.json}) goes first, so a half-deleted backup is
 * never listed. Exports registered by hand (native ones a user made) are never deleted. A backup a restore in
 * progress reads ({@link RestoreHolds}) is kept until that restore ends; the grace covers the
 * moment between a planner resolving a source and its acceptance reaching the status topic.
 */
public final class Expiry {

    private final S3Client s3;
    private final VaultCatalog catalog;
    private final VaultLayout layout;
    private final Duration grace;

    /** What was deleted. */
    public record Expired(List<BackupSummary> backups, List<ExportMetadata> exports) {}

    public Expiry(S3Client s3, VaultCatalog catalog, Duration grace) {
        this.s3 = s3;
        this.catalog = catalog;
        this.layout = catalog.layout();
        this.grace = grace;
    }

    /**
     * @param ownExportPrefixes the id prefixes of the change logs this service records (one chain each, or
     *                          one per shard group, whose latest export is kept: it holds the chain's checkpoint)
     * @param held              the backups restores in progress read: kept, and with them the change log after them
     */
    public Expired run(
            String account,
            String region,
            String table,
            List<String> ownExportPrefixes,
            RestoreHolds.Held held,
            Instant now) {
        var backups = catalog.listBackups(account, region, table);
        var gone = new ArrayList<BackupSummary>();
        for (BackupSummary b : backups) {
            if (b.expiresAt() != null && !now.isBefore(b.expiresAt().plus(grace)) && !held.holds(b)) {
                String prefix = layout.backupPrefix(account, region, table, b.backupId());
                deleteFolder(prefix, prefix + VaultLayout.BACKUP_JSON);
                gone.add(b);
            }
        }
        Instant keepFrom = backups.stream()
                .filter(b -> !gone.contains(b))
                .map(BackupSummary::takenAt)
                .min(Comparator.naturalOrder())
                .orElse(now);
        var exports = catalog.listExports(account, region, table);
        var expired = new ArrayList<ExportMetadata>();
        var chains = new LinkedHashMap<String, List<ExportMetadata>>();
        for (String ownPrefix : ownExportPrefixes) {
            // one chain per prefix, and one per shard group under it (ADR 0025): each keeps its latest export
            exports.stream()
                    .filter(e -> e.exportId().startsWith(ownPrefix))
                    .forEach(e -> chains.computeIfAbsent(ownPrefix + " " + e.shardGroup(), k -> new ArrayList<>())
                            .add(e));
        }
        for (var own : chains.values()) {
            for (int i = 0; i < own.size() - 1; i++) {
                ExportMetadata e = own.get(i);
                if (!e.to().isAfter(keepFrom)) {
                    String prefix = layout.exportPrefix(account, region, table, e.exportId());
                    deleteFolder(prefix, prefix + VaultLayout.EXPORT_JSON);
                    expired.add(e);
                }
            }
        }
        return new Expired(gone, expired);
    }

    private void deleteFolder(String prefix, String markerFirst) {
        s3.deleteObject(b -> b.bucket(layout.bucket()).key(markerFirst));
        var keys = new ArrayList<ObjectIdentifier>();
        for (var page : s3.listObjectsV2Paginator(b -> b.bucket(layout.bucket()).prefix(prefix))) {
            for (S3Object o : page.contents()) {
                keys.add(ObjectIdentifier.builder().key(o.key()).build());
                if (keys.size() == 1_000) {
                    delete(keys);
                }
            }
        }
        delete(keys);
    }

    private void delete(List<ObjectIdentifier> keys) {
        if (keys.isEmpty()) {
            return;
        }
        var batch = List.copyOf(keys);
        s3.deleteObjects(
                b -> b.bucket(layout.bucket()).delete(d -> d.objects(batch).quiet(true)));
        keys.clear();
    }
}
