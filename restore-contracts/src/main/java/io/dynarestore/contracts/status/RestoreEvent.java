package io.dynarestore.contracts.status;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dynarestore.contracts.Envelope;

/**
 * An event on {@code restore.status}, keyed by restore id. The events of one restore are
 * totally ordered; {@link RestoreView} folds them into a summary.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = RestoreAccepted.class, name = "RestoreAccepted"),
    @JsonSubTypes.Type(value = RestoreRejected.class, name = "RestoreRejected"),
    @JsonSubTypes.Type(value = RestorePlanned.class, name = "RestorePlanned"),
    @JsonSubTypes.Type(value = DestinationReady.class, name = "DestinationReady"),
    @JsonSubTypes.Type(value = SegmentsDispatched.class, name = "SegmentsDispatched"),
    @JsonSubTypes.Type(value = SegmentProgressed.class, name = "SegmentProgressed"),
    @JsonSubTypes.Type(value = SegmentCompleted.class, name = "SegmentCompleted"),
    @JsonSubTypes.Type(value = SegmentFailed.class, name = "SegmentFailed"),
    @JsonSubTypes.Type(value = RestoreCompleted.class, name = "RestoreCompleted"),
    @JsonSubTypes.Type(value = RestoreFailed.class, name = "RestoreFailed"),
    @JsonSubTypes.Type(value = CapacityRaiseStarted.class, name = "CapacityRaiseStarted"),
    @JsonSubTypes.Type(value = CapacityRestored.class, name = "CapacityRestored"),
    @JsonSubTypes.Type(value = ImportStaged.class, name = "ImportStaged"),
    @JsonSubTypes.Type(value = ImportStarted.class, name = "ImportStarted"),
    @JsonSubTypes.Type(value = ImportCompleted.class, name = "ImportCompleted"),
    @JsonSubTypes.Type(value = SnapRestoreStarted.class, name = "SnapRestoreStarted"),
    @JsonSubTypes.Type(value = ExportCompleted.class, name = "ExportCompleted"),
    @JsonSubTypes.Type(value = CancellationStarted.class, name = "CancellationStarted"),
    @JsonSubTypes.Type(value = SegmentCancelled.class, name = "SegmentCancelled"),
    @JsonSubTypes.Type(value = RestoreCancelled.class, name = "RestoreCancelled"),
    @JsonSubTypes.Type(value = RestoreProgressed.class, name = "RestoreProgressed"),
    @JsonSubTypes.Type(value = RollbackStarted.class, name = "RollbackStarted"),
    @JsonSubTypes.Type(value = RollbackCompleted.class, name = "RollbackCompleted"),
    @JsonSubTypes.Type(value = RollbackFailed.class, name = "RollbackFailed")
})
public sealed interface RestoreEvent extends Envelope
        permits RestoreAccepted,
                RestoreRejected,
                RestorePlanned,
                DestinationReady,
                SegmentsDispatched,
                SegmentProgressed,
                SegmentCompleted,
                SegmentFailed,
                RestoreCompleted,
                RestoreFailed,
                CapacityRaiseStarted,
                CapacityRestored,
                ImportStaged,
                ImportStarted,
                ImportCompleted,
                SnapRestoreStarted,
                ExportCompleted,
                CancellationStarted,
                SegmentCancelled,
                RestoreCancelled,
                RestoreProgressed,
                RollbackStarted,
                RollbackCompleted,
                RollbackFailed {

    int SCHEMA_VERSION = 1;

    @Override
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }

    /** Whether this event ends the restore: nothing follows it. */
    @JsonIgnore
    default boolean terminal() {
        return this instanceof RestoreRejected
                || this instanceof RestoreCompleted
                || this instanceof RestoreFailed
                || this instanceof RestoreCancelled;
    }
}
