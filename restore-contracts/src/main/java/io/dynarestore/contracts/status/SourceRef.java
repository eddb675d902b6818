package io.dynarestore.contracts.status;

import java.time.Instant;

/** The backup (or point in time) a restore reads, as resolved by the planner. */
public record SourceRef(String account, String region, String table, String backupId, Instant takenAt) {
}
