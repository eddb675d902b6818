package io.dynarestore.core.vault;

import io.dynarestore.contracts.BackupIds;
import io.dynarestore.contracts.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What the vault holds for a table, read from S3. A backup is listed only once its
 * {@code backup.json} exists, so a backup still being written is never offered.
 */
public final class VaultCatalog {

    private final S3Client s3;
    private final VaultLayout layout;

    public VaultCatalog(S3Client s3, VaultLayout layout) {
        this.s3 = s3;
        this.layout = layout;
    }

    public VaultLayout layout() {
        return layout;
    }

    /** The tables of an account and region that the vault holds anything of (backups, exports, Snaps), by name. */
    public List<String> listTables(String account, String region) {
        var tables = new TreeSet<String>();
        String prefix = layout.root() + account + "/" + region + "/";
        for (var page : s3.listObjectsV2Paginator(
                b -> b.bucket(layout.bucket()).prefix(prefix).delimiter("/"))) {
            for (CommonPrefix cp : page.commonPrefixes()) {
                String name = cp.prefix().substring(prefix.length()).replace("/", "");
                if (!name.isEmpty()) {
                    tables.add(name);
                }
            }
        }
        return List.copyOf(tables);
    }

    /**
     * Whether anything of backup {@code backupId} is in the vault, listed or not: a backup that was begun
     * (its Scan's checkpoints and data files, an export's files) leaves objects before its {@code backup.json}.
     */
    public boolean backupBegun(String account, String region, String table, String backupId) {
        String prefix = layout.backupPrefix(account, region, table, backupId);
        return s3.listObjectsV2(b -> b.bucket(layout.bucket()).prefix(prefix).maxKeys(1))
                        .keyCount()
                > 0;
    }

    /** A table's complete backups, oldest first. */
    public List<BackupSummary> listBackups(String account, String region, String table) {
        var result = new ArrayList<BackupSummary>();
        String prefix = layout.backupsPrefix(account, region, table);
        for (var page : s3.listObjectsV2Paginator(
                b -> b.bucket(layout.bucket()).prefix(prefix).delimiter("/"))) {
            for (CommonPrefix cp : page.commonPrefixes()) {
                String backupId = cp.prefix().substring(prefix.length()).replace("/", "");
                if (backupId.isEmpty()) {
                    continue;
                }
                readMetadata(cp.prefix()).ifPresent(meta -> {
                    ExportLocation where = meta.location();
                    ManifestSummary summary = readJson(
                                    where != null ? where.bucket() : layout.bucket(),
                                    (where != null ? where.prefix() : cp.prefix()) + VaultLayout.MANIFEST_SUMMARY,
                                    ManifestSummary.class)
                            .orElse(null);
                    result.add(BackupSummary.of(meta, summary));
                });
            }
        }
        result.sort(Comparator.comparing(BackupSummary::takenAt));
        return result;
    }

    /** A complete backup with its data files, if the vault has it. */
    public Optional<Backup> findBackup(String account, String region, String table, String backupId) {
        if (!isSafeId(backupId)) {
            return Optional.empty();
        }
        String prefix = layout.backupPrefix(account, region, table, backupId);
        Optional<BackupMetadata> metadata = readMetadata(prefix);
        if (metadata.isEmpty()) {
            return Optional.empty();
        }
        ExportLocation where = metadata.get().location();
        String bucket = where != null ? where.bucket() : layout.bucket();
        String root = where != null ? where.prefix() : prefix;
        ManifestSummary summary = readJson(bucket, root + VaultLayout.MANIFEST_SUMMARY, ManifestSummary.class)
                .orElseThrow(() -> new IllegalStateException("backup " + backupId + " has no "
                        + VaultLayout.MANIFEST_SUMMARY + " at s3://" + bucket + "/" + root));
        return Optional.of(new Backup(layout, metadata.get(), summary, readManifestFiles(bucket, root, where)));
    }

    /** The incremental exports of a table, oldest first. */
    public List<ExportMetadata> listExports(String account, String region, String table) {
        var result = new ArrayList<ExportMetadata>();
        String prefix = layout.exportsPrefix(account, region, table);
        for (var page : s3.listObjectsV2Paginator(
                b -> b.bucket(layout.bucket()).prefix(prefix).delimiter("/"))) {
            for (CommonPrefix cp : page.commonPrefixes()) {
                if (cp.prefix().length() > prefix.length() + 1) {
                    readJson(layout.bucket(), cp.prefix() + VaultLayout.EXPORT_JSON, ExportMetadata.class)
                            .ifPresent(result::add);
                }
            }
        }
        result.sort(Comparator.comparing(ExportMetadata::from).thenComparing(ExportMetadata::to));
        return result;
    }

    /** The data files of an incremental export, with keys in {@link #exportBucket(ExportMetadata)}. */
    public List<ManifestFile> exportFiles(ExportMetadata export) {
        ExportLocation where = export.location();
        String root = where != null
                ? where.prefix()
                : layout.exportPrefix(export.account(), export.region(), export.tableName(), export.exportId());
        return readManifestFiles(exportBucket(export), root, where);
    }

    public String exportBucket(ExportMetadata export) {
        return export.location() != null ? export.location().bucket() : layout.bucket();
    }

    /** The Snaps (AWS-native backups) of a table, oldest first. */
    public List<SnapMetadata> listSnaps(String account, String region, String table) {
        var result = new ArrayList<SnapMetadata>();
        String prefix = layout.snapsPrefix(account, region, table);
        for (var page : s3.listObjectsV2Paginator(b -> b.bucket(layout.bucket()).prefix(prefix))) {
            for (var object : page.contents()) {
                if (object.key().endsWith(".json")) {
                    readJson(layout.bucket(), object.key(), SnapMetadata.class).ifPresent(result::add);
                }
            }
        }
        result.sort(Comparator.comparing(SnapMetadata::takenAt));
        return result;
    }

    /** The Snap {@code snapId} of a table, if the vault has it. */
    public Optional<SnapMetadata> findSnap(String account, String region, String table, String snapId) {
        if (!isSafeId(snapId)) {
            return Optional.empty();
        }
        return readJson(
                layout.bucket(), layout.snapsPrefix(account, region, table) + snapId + ".json", SnapMetadata.class);
    }

    /** Writes a vault entry ({@code backup.json}, {@code export.json}, a Snap) as JSON. */
    public void put(String key, Object value) {
        s3.putObject(
                b -> b.bucket(layout.bucket()).key(key).contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(value)));
    }

    /** Reads a JSON object from any bucket the services may read, if it exists. */
    public <T> Optional<T> read(String bucket, String key, Class<T> type) {
        return readJson(bucket, key, type);
    }

    private Optional<BackupMetadata> readMetadata(String backupPrefix) {
        return readJson(layout.bucket(), backupPrefix + VaultLayout.BACKUP_JSON, BackupMetadata.class);
    }

    private List<ManifestFile> readManifestFiles(String bucket, String root, ExportLocation where) {
        var files = new ArrayList<ManifestFile>();
        try (var in = s3.getObject(b -> b.bucket(bucket).key(root + VaultLayout.MANIFEST_FILES));
                var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isBlank()) {
                    ManifestFile f = Json.mapper().readValue(line, ManifestFile.class);
                    if (where != null) {
                        f = f.at(where.resolve(f.dataFileS3Key()));
                    }
                    files.add(f);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private <T> Optional<T> readJson(String bucket, String key, Class<T> type) {
        try (ResponseInputStream<GetObjectResponse> in =
                s3.getObject(b -> b.bucket(bucket).key(key))) {
            return Optional.of(Json.mapper().readValue(in, type));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ids become parts of S3 keys: the one rule of {@link io.dynarestore.contracts.BackupIds}. */
    public static boolean isSafeId(String id) {
        return BackupIds.valid(id);
    }

    /** A backup as the catalog lists it. */
    public record BackupSummary(
            String backupId,
            Instant takenAt,
            Instant expiresAt,
            String account,
            String region,
            String table,
            long itemCount,
            long sizeBytes,
            Instant consistentAt) {
        static BackupSummary of(BackupMetadata m, ManifestSummary s) {
            return new BackupSummary(
                    m.backupId(),
                    m.takenAt(),
                    m.expiresAt(),
                    m.account(),
                    m.region(),
                    m.tableName(),
                    s == null || s.itemCount() == null ? 0 : s.itemCount(),
                    s == null || s.billedSizeBytes() == null ? 0 : s.billedSizeBytes(),
                    m.consistentAt());
        }

        public boolean expiredAt(Instant now) {
            return expiresAt != null && !now.isBefore(expiresAt);
        }
    }
}
