package io.dynarestore.planner.restore;

import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.CapacityRaiseStarted;
import io.dynarestore.contracts.status.CapacityRestored;
import io.dynarestore.contracts.status.CapacityUnits;
import io.dynarestore.contracts.status.DestinationReady;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.ImportCompleted;
import io.dynarestore.contracts.status.ImportStaged;
import io.dynarestore.contracts.status.ImportStarted;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentFailed;
import io.dynarestore.contracts.status.SegmentsDispatched;
import io.dynarestore.contracts.status.SnapRestoreStarted;
import io.dynarestore.contracts.status.SourceRef;
import io.dynarestore.contracts.status.TableRef;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RestoreStepsTest {

    static final TableRef TABLE = new TableRef("000000000000", "us-east-1", "t2");
    static final RestoreRequested REQUEST = aRestore("r")
            .fromBackup("t", "b")
            .into(new Destination.NewTable("000000000000", "us-east-1", "t2", null))
            .build()
            .normalized("r", "e", Instant.EPOCH);

    static RestoreView planned(int segments) {
        var view = new RestoreView("r");
        view.apply(RestoreAccepted.of(REQUEST));
        view.apply(RestorePlanned.of(
                "r",
                RestorePlanned.Strategy.ITEM_WRITES,
                new SourceRef("000000000000", "us-east-1", "t", "b", Instant.EPOCH),
                TABLE,
                segments,
                10,
                10,
                10));
        return view;
    }

    @Test
    void walksARestoreThroughItsStepsInOrder() {
        var view = new RestoreView("r");
        assertThat(RestoreSteps.next(view)).isNull();
        view.apply(RestoreAccepted.of(REQUEST));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.PLAN);
        view = planned(2);
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.PREPARE_DESTINATION);
        view.apply(DestinationReady.of("r", TABLE, true));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.DISPATCH);
        view.apply(SegmentsDispatched.of("r", 2));
        assertThat(RestoreSteps.next(view)).as("waits for writers").isNull();
        view.apply(SegmentCompleted.of("r", 1, 5, 5, 5, "w", 1));
        view.apply(SegmentCompleted.of("r", 1, 5, 5, 5, "w", 1));
        assertThat(RestoreSteps.next(view))
                .as("a segment that completes twice counts once")
                .isNull();
        view.apply(SegmentCompleted.of("r", 0, 5, 5, 5, "w", 1));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.COMPLETE);
        view.apply(RestoreCompleted.of("r", TABLE, 10, 10, 2, 1));
        assertThat(RestoreSteps.next(view)).isNull();
    }

    @Test
    void completesARestoreOfAnEmptyBackupOnceDispatched() {
        var view = planned(0);
        view.apply(DestinationReady.of("r", TABLE, true));
        view.apply(SegmentsDispatched.of("r", 0));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.COMPLETE);
    }

    @Test
    void failsARestoreWhenASegmentFailed() {
        var view = planned(3);
        view.apply(DestinationReady.of("r", TABLE, true));
        view.apply(SegmentsDispatched.of("r", 3));
        view.apply(SegmentFailed.of("r", 2, "corrupt", 0, "w"));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.FAIL);
    }

    static RestoreView plannedAs(RestorePlanned.Strategy strategy) {
        var view = new RestoreView("r");
        view.apply(RestoreAccepted.of(REQUEST));
        view.apply(RestorePlanned.of(
                "r",
                strategy,
                new SourceRef("000000000000", "us-east-1", "t", "b", Instant.EPOCH),
                TABLE,
                0,
                10,
                10,
                10));
        return view;
    }

    @Test
    void walksAnImportThroughStagingStartingWaitingAndCompletion() {
        var view = plannedAs(RestorePlanned.Strategy.IMPORT_FROM_S3);
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.STAGE_IMPORT);
        view.apply(ImportStaged.of("r", "vault", "_staging/r/import/data/", 10, 100, 1));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.START_IMPORT);
        view.apply(ImportStarted.of("r", "arn:import", TABLE));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.AWAIT_IMPORT);
        view.apply(ImportCompleted.of("r", "arn:import", 10, 100, 0));
        assertThat(RestoreSteps.next(view))
                .as("the table is finished, then ready")
                .isEqualTo(RestoreSteps.Step.AWAIT_IMPORT);
        view.apply(DestinationReady.of("r", TABLE, true));
        assertThat(RestoreSteps.next(view)).as("nothing to dispatch").isEqualTo(RestoreSteps.Step.COMPLETE);
        assertThat(view.itemsWritten()).as("the import's count").isEqualTo(10);
    }

    @Test
    void walksASnapRestoreThroughStartingWaitingAndCompletion() {
        var view = plannedAs(RestorePlanned.Strategy.SNAP);
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.START_SNAP);
        view.apply(SnapRestoreStarted.of("r", "arn:backup", TABLE));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.AWAIT_SNAP);
        view.apply(DestinationReady.of("r", TABLE, true));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.COMPLETE);
    }

    @Test
    void putsRaisedCapacityBackAfterTheEndHoweverTheRestoreEnded() {
        for (boolean completes : new boolean[] {true, false}) {
            // Given a running restore that raised its destination's capacity
            var view = planned(1);
            var units = java.util.List.of(CapacityUnits.table(5, 5));
            view.apply(CapacityRaiseStarted.of("r", TABLE, units, java.util.List.of(CapacityUnits.table(5, 1000))));
            view.apply(DestinationReady.of("r", TABLE, false));
            assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.DISPATCH);

            // When it ends
            view.apply(completes ? RestoreCompleted.of("r", TABLE, 10, 10, 1, 1) : RestoreFailed.of("r", "x", 0));

            // Then the capacity is put back, once
            assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.PUT_BACK_CAPACITY);
            view.apply(CapacityRestored.of("r", TABLE, units, null));
            assertThat(RestoreSteps.next(view)).isNull();
        }
    }

    @Test
    void redispatchesAfterACrashOnlyWhenDispatchWasNotRecorded() {
        var view = planned(3);
        view.apply(DestinationReady.of("r", TABLE, true));
        view.apply(SegmentCompleted.of("r", 0, 5, 5, 5, "w", 1));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.DISPATCH);
    }

    static RestoreView plannedExport(int parts) {
        var view = new RestoreView("r");
        view.apply(RestoreAccepted.of(REQUEST));
        view.apply(RestorePlanned.of(
                "r",
                RestorePlanned.Strategy.FILE_EXPORT,
                new SourceRef("000000000000", "us-east-1", "t", "b", Instant.EPOCH),
                TABLE,
                parts > 1 ? parts + 1 : 1,
                parts > 1 ? 1 : 0,
                parts > 1,
                10,
                10,
                0,
                null));
        return view;
    }

    @Test
    void mergesASplitExportOnceEveryPartHasCompletedAndCompletesWithTheFile() {
        // Given an export planned in 3 parts, dispatched
        var view = plannedExport(3);
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.DISPATCH_EXPORT);
        view.apply(SegmentsDispatched.of("r", 3, SegmentsDispatched.Phase.BASE));
        assertThat(RestoreSteps.next(view)).as("waits for the parts").isNull();

        // When two parts complete (one twice), then the third
        view.apply(SegmentCompleted.of("r", 0, 5, 5, 0, "exporter", 1));
        view.apply(SegmentCompleted.of("r", 2, 5, 5, 0, "exporter", 1));
        view.apply(SegmentCompleted.of("r", 2, 5, 5, 0, "exporter", 1));
        assertThat(RestoreSteps.next(view))
                .as("a part that completes twice counts once")
                .isNull();
        view.apply(SegmentCompleted.of("r", 1, 5, 5, 0, "exporter", 1));

        // Then the merge goes out once, and the file completes the restore
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.DISPATCH_EXPORT_MERGE);
        view.apply(SegmentsDispatched.of("r", 1, SegmentsDispatched.Phase.DELTA));
        assertThat(RestoreSteps.next(view)).as("waits for the merge").isNull();
        view.apply(ExportCompleted.of("r", "vault", "_exports/r/t.csv", 15, 100, "00", false, 15));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.COMPLETE);
    }

    @Test
    void failsASplitExportWhenAPartFailedWithoutMerging() {
        var view = plannedExport(2);
        view.apply(SegmentsDispatched.of("r", 2, SegmentsDispatched.Phase.BASE));
        view.apply(SegmentCompleted.of("r", 0, 5, 5, 0, "exporter", 1));
        view.apply(SegmentFailed.of("r", 1, "the export failed: backup gone", 0, "exporter"));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.FAIL);
    }

    @Test
    void completesAWholeExportWithItsFileAndNeverMerges() {
        var view = plannedExport(1);
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.DISPATCH_EXPORT);
        view.apply(SegmentsDispatched.of("r", 1, SegmentsDispatched.Phase.ALL));
        assertThat(RestoreSteps.next(view)).isNull();
        view.apply(ExportCompleted.of("r", "vault", "_exports/r/t.csv", 15, 100, "00", false, 15));
        assertThat(RestoreSteps.next(view)).isEqualTo(RestoreSteps.Step.COMPLETE);
    }
}
