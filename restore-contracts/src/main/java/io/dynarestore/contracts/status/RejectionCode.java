package io.dynarestore.contracts.status;

/** Why a request was rejected, as a stable code that clients can branch on. */
public enum RejectionCode {
    /** The message is not JSON. */
    INVALID_JSON,
    /** The JSON does not match the request schema or its rules. */
    INVALID_REQUEST,
    /** A filter of a record restore cannot be applied to the table; the reason names it and the fix. */
    INVALID_FILTER,
    /** The source backup (or table) is not in the vault. */
    BACKUP_NOT_FOUND,
    /** The source backup is past its expiry. */
    BACKUP_EXPIRED,
    /** A new table was asked for, but a table of that name exists. */
    TABLE_EXISTS,
    /** The point in time is outside every restorable window; the reason names the nearest ones. */
    POINT_NOT_RESTORABLE,
    /** An existing table was named as the destination, but there is no such table. */
    TABLE_NOT_FOUND,
    /** A full restore into an existing table needs it empty; it holds items. */
    TABLE_NOT_EMPTY,
    /** The destination's key schema differs from the backup's. */
    KEY_SCHEMA_MISMATCH,
    /** The account or region is not in the configured registry. */
    UNKNOWN_ACCOUNT,
    /** The account's role could not be assumed (for example a trust policy without this installation's ExternalId). */
    ACCESS_DENIED,
    /** The request's principal lacks a role the request needs; the reason names the roles and where they are granted. */
    FORBIDDEN,
    /** A valid request this version cannot carry out yet. */
    UNSUPPORTED
}
