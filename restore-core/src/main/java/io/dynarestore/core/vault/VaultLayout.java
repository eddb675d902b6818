package io.dynarestore.core.vault;

/**
 * Where things live in the vault bucket:
 * <pre>
 * {root}{account}/{region}/{table}/backups/{backupId}/manifest-summary.json, manifest-files.json,
 *                                                     data/*.json.gz, backup.json
 * {root}{account}/{region}/{table}/pitr/{exportId}/...
 * {root}{account}/{region}/{table}/snaps/{snapId}.json
 * </pre>
 * A backup exists once its {@code backup.json} exists: the writer puts it last.
 */
public record VaultLayout(String bucket, String root) {

    public static final String MANIFEST_SUMMARY = "manifest-summary.json";
    public static final String MANIFEST_FILES = "manifest-files.json";
    public static final String BACKUP_JSON = "backup.json";

    public VaultLayout {
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("the vault bucket must be set");
        }
        root = root == null || root.isBlank() ? "" : (root.endsWith("/") ? root : root + "/");
    }

    public String tablePrefix(String account, String region, String table) {
        return root + account + "/" + region + "/" + table + "/";
    }

    public String backupsPrefix(String account, String region, String table) {
        return tablePrefix(account, region, table) + "backups/";
    }

    public String backupPrefix(String account, String region, String table, String backupId) {
        return backupsPrefix(account, region, table) + backupId + "/";
    }
}
