package io.dynarestore.contracts.protection;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/**
 * Work on {@code restore.protection.scans}, keyed by {@code account/region/table/backupId/segment}:
 * a segment of a SCAN backup, for whichever protector replica is assigned it. Kafka carries the
 * descriptor; the items go from the table to the vault.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({@JsonSubTypes.Type(value = ScanSegmentRequested.class, name = "ScanSegmentRequested")})
public sealed interface ScanWork extends Envelope permits ScanSegmentRequested {

    int SCHEMA_VERSION = 1;

    @Override
    @JsonIgnore
    default String restoreId() {
        return null;
    }

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }
}
