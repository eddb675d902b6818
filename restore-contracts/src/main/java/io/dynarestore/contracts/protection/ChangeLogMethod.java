package io.dynarestore.contracts.protection;

/** Where a table's change log (its point-in-time history) comes from. */
public enum ChangeLogMethod {
    /** None: only the full backups themselves are restorable. */
    NONE,
    /** The table's DynamoDB Stream (NEW_AND_OLD_IMAGES), captured continuously: every second is restorable. */
    STREAMS,
    /** DynamoDB's incremental exports, chained: exact at each export's end only. */
    NATIVE_INCREMENTAL
}
