package io.dynarestore.contracts.protection;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.Topic;

/**
 * What the protector did to a table, on {@code restore.protection.events}, keyed by
 * {@code account/region/table}: backups started, progressed, completed, failed; change-log flushes, gaps and
 * failures; expiries and failed ones; restore drills passed, failed and skipped; messages it could not act on. A table's events are in order on one
 * partition.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = BackupStarted.class, name = "BackupStarted"),
    @JsonSubTypes.Type(value = BackupProgressed.class, name = "BackupProgressed"),
    @JsonSubTypes.Type(value = BackupCompleted.class, name = "BackupCompleted"),
    @JsonSubTypes.Type(value = BackupFailed.class, name = "BackupFailed"),
    @JsonSubTypes.Type(value = ChangeLogFlushed.class, name = "ChangeLogFlushed"),
    @JsonSubTypes.Type(value = ChangeLogGapped.class, name = "ChangeLogGapped"),
    @JsonSubTypes.Type(value = ChangeLogFailed.class, name = "ChangeLogFailed"),
    @JsonSubTypes.Type(value = BackupExpired.class, name = "BackupExpired"),
    @JsonSubTypes.Type(value = ChangeLogExpired.class, name = "ChangeLogExpired"),
    @JsonSubTypes.Type(value = ExpiryFailed.class, name = "ExpiryFailed"),
    @JsonSubTypes.Type(value = ProtectionMessageRejected.class, name = "ProtectionMessageRejected"),
    @JsonSubTypes.Type(value = DrillPassed.class, name = "DrillPassed"),
    @JsonSubTypes.Type(value = DrillFailed.class, name = "DrillFailed"),
    @JsonSubTypes.Type(value = DrillSkipped.class, name = "DrillSkipped")
})
public sealed interface ProtectionEvent extends Envelope
        permits BackupStarted,
                BackupProgressed,
                BackupCompleted,
                BackupFailed,
                ChangeLogFlushed,
                ChangeLogGapped,
                ChangeLogFailed,
                BackupExpired,
                ChangeLogExpired,
                ExpiryFailed,
                ProtectionMessageRejected,
                DrillPassed,
                DrillFailed,
                DrillSkipped {

    int SCHEMA_VERSION = 1;

    String account();

    String region();

    String table();

    /** Protection events belong to a table, not to a restore. */
    @Override
    @JsonIgnore
    default String restoreId() {
        return null;
    }

    @Override
    @JsonIgnore
    default String subject() {
        return Topic.tableKey(account(), region(), table());
    }

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
