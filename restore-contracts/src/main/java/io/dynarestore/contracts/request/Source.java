package io.dynarestore.contracts.request;

/**
 * What to restore from: a table of an account and region, and exactly one of a backup id, a
 * point in time (ISO-8601 second, or {@code latest}), or a Snap id; with a point in time, an
 * {@link Undo} restores only the keys written in a window after it.
 */
public record Source(
        String account, String region, String table, String backupId, String pointInTime, String snapId, Undo undo) {

    public Source(String account, String region, String table, String backupId, String pointInTime, String snapId) {
        this(account, region, table, backupId, pointInTime, snapId, null);
    }

    /**
     * The undo of the window (pointInTime, until]: only the keys written in it go back to their
     * image at {@code pointInTime} (ADR 0031). A key written again after {@code until} is a
     * conflict: left as it is ({@link #LEAVE}, the default) or taken back too ({@link #OVERWRITE}).
     * A strict undo writes each revert on the condition that the item still holds its last image in
     * the change log, so a write that lands after planning is a conflict too, never overwritten.
     *
     * @param until      the window's last second, ISO-8601
     * @param onConflict {@code LEAVE} or {@code OVERWRITE}
     * @param strict     whether every revert is a conditional write ({@code null}: no)
     */
    public record Undo(String until, String onConflict, Boolean strict) {

        public static final String LEAVE = "LEAVE";
        public static final String OVERWRITE = "OVERWRITE";

        /** Whether every revert is written only if the item still holds its last known image. */
        public boolean conditional() {
            return Boolean.TRUE.equals(strict);
        }

        /** Whether keys written again after the window are taken back to the window's start too. */
        public boolean overwrites() {
            return OVERWRITE.equals(onConflict);
        }
    }

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
