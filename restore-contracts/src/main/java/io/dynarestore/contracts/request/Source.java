package io.dynarestore.contracts.request;

/**
 * What to restore from: a table of an account and region, and exactly one of a backup id, a
 * point in time (ISO-8601 second, or {@code latest}), or a Snap id.
 */
public record Source(String account, String region, String table, String backupId, String pointInTime, String snapId) {

    public static Source backup(String account, String region, String table, String backupId) {
        return new Source(account, region, table, backupId, null, null);
    }

    /** The kind of source this is; {@code null} when it names none or several. */
    public Kind kind() {
        int n = (backupId != null ? 1 : 0) + (pointInTime != null ? 1 : 0) + (snapId != null ? 1 : 0);
        if (n != 1) {
            return null;
        }
        return backupId != null ? Kind.BACKUP : pointInTime != null ? Kind.POINT_IN_TIME : Kind.SNAP;
    }

    public enum Kind {
        BACKUP,
        POINT_IN_TIME,
        SNAP
    }
}
