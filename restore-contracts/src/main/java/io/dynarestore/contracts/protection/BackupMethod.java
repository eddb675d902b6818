package io.dynarestore.contracts.protection;

/** How a full backup is taken. */
public enum BackupMethod {
    /** A parallel Scan paced to a read budget: for tables without PITR (and dynalite). */
    SCAN,
    /** DynamoDB's ExportTableToPointInTime (FULL_EXPORT): needs PITR, consumes no read capacity. */
    NATIVE_EXPORT
}
