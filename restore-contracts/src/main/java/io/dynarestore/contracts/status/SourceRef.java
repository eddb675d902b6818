package io.dynarestore.contracts.status;

import java.time.Instant;

/**
 * What a restore reads, as resolved by the planner: the base backup and, for a point-in-time
 * restore, the second restored to and how many incremental exports are replayed on the base; or
 * the Snap ({@code snapId}, {@code backupId} empty) of a Snap restore.
 */
public record SourceRef(
        String account,
        String region,
        String table,
        String backupId,
        Instant takenAt,
        Instant pointInTime,
        Integer exports,
        String snapId) {

    public SourceRef(String account, String region, String table, String backupId, Instant takenAt) {
        this(account, region, table, backupId, takenAt, null, null, null);
    }

    public SourceRef(
            String account,
            String region,
            String table,
            String backupId,
            Instant takenAt,
            Instant pointInTime,
            Integer exports) {
        this(account, region, table, backupId, takenAt, pointInTime, exports, null);
    }
}
