package io.dynarestore.core.vault;

/**
 * Where things live in the vault bucket:
 * <pre>
 * {root}{account}/{region}/{table}/backups/{backupId}/manifest-summary.json, manifest-files.json,
 *                                                     data/*.json.gz, backup.json
 * {root}{account}/{region}/{table}/pitr/{exportId}/manifest-summary.json, manifest-files.json,
 *                                                 data/*.json.gz, export.json
 * {root}{account}/{region}/{table}/snaps/{snapId}.json
 * {root}_staging/{restoreId}/...        what the planner derives for a restore
 * </pre>
 * A backup exists once its {@code backup.json} exists, an incremental export once its
 * {@code export.json} does: writers put them last. For a native export registered where it lies,
 * these files hold a {@code location} and the manifests are read from there.
 */
public record VaultLayout(String bucket, String root) {

    public static final String MANIFEST_SUMMARY = "manifest-summary.json";
    public static final String MANIFEST_FILES = "manifest-files.json";
    public static final String BACKUP_JSON = "backup.json";
    public static final String EXPORT_JSON = "export.json";

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

    public String exportsPrefix(String account, String region, String table) {
        return tablePrefix(account, region, table) + "pitr/";
    }

    public String exportPrefix(String account, String region, String table, String exportId) {
        return exportsPrefix(account, region, table) + exportId + "/";
    }

    public String snapsPrefix(String account, String region, String table) {
        return tablePrefix(account, region, table) + "snaps/";
    }

    /** Where the planner stages what it derives for one restore (the delta of a point-in-time restore). */
    public String stagingPrefix(String restoreId) {
        return root + "_staging/" + restoreId + "/";
    }
}
