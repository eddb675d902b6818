package io.dynarestore.api.restores;

import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.status.DestinationReady;
import io.dynarestore.contracts.status.Diff;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestoreProgressed;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.contracts.status.RollbackCompleted;
import io.dynarestore.contracts.status.RollbackFailed;
import io.dynarestore.contracts.status.RollbackStarted;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentFailed;
import io.dynarestore.contracts.status.SourceRef;
import io.dynarestore.contracts.status.TableRef;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RestoreSummaryTest {

    static final TableRef TABLE = new TableRef("000000000000", "us-east-1", "orders-restored");

    static RestoreView running(String id) {
        var view = new RestoreView(id);
        view.apply(RestoreAccepted.of(aRestore(id).requestedBy("ann").normalized()));
        view.apply(RestorePlanned.of(
                id,
                RestorePlanned.Strategy.ITEM_WRITES,
                new SourceRef("000000000000", "us-east-1", "orders", "b1", Instant.EPOCH),
                TABLE,
                3,
                30,
                3000,
                30));
        view.apply(DestinationReady.of(id, TABLE, true));
        return view;
    }

    @Test
    void summarisesARunningRestoreWithItsPlanCountsAndRates() {
        // Given a running restore of three segments: one done, one failed, and a progress report
        var view = running("r1");
        view.apply(SegmentCompleted.of("r1", 0, 10, 1000, 10, "w1", 5));
        view.apply(SegmentFailed.of("r1", 1, "AccessDenied", 0, "w2"));
        view.apply(RestoreProgressed.of("r1", 10, 1000, 30L, 1, 3, 10, 5.0, 5.0, 0));

        // When it is summarised
        var summary = RestoreSummary.of(view);

        // Then the summary shows the plan, the counts, the failed segment and the rates
        assertThat(summary.state()).isEqualTo(RestoreState.RUNNING);
        assertThat(summary.strategy()).isEqualTo(RestorePlanned.Strategy.ITEM_WRITES);
        assertThat(summary.segments()).isEqualTo(3);
        assertThat(summary.segmentsCompleted()).isEqualTo(1);
        assertThat(summary.itemsWritten()).isEqualTo(10);
        assertThat(summary.estimatedItems()).isEqualTo(30);
        assertThat(summary.failedSegments()).containsEntry(1, "AccessDenied");
        assertThat(summary.destination()).isEqualTo(TABLE);
        assertThat(summary.requestedBy()).isEqualTo("ann");
        assertThat(summary.progress()).isEqualTo(new RestoreSummary.Progress(5.0, 5.0, 4L, 33.3));
        assertThat(summary.rollbackPossible()).isFalse();
        assertThat(summary.file()).isNull();
        assertThat(summary.rollback()).isNull();
    }

    @Test
    void showsTheRollbackOfAnEndedRestoreAsItRunsFailsAndCompletes() {
        // Given an in-place restore that failed
        var view = new RestoreView("r2");
        view.apply(RestoreAccepted.of(aRestore("r2").inPlace().normalized()));
        view.apply(RestoreFailed.of("r2", "boom", 3));
        assertThat(RestoreSummary.of(view).rollbackPossible()).isTrue();

        // When its rollback starts, fails, starts again and completes
        view.apply(RollbackStarted.of("r2", "ops", "undo"));
        assertThat(RestoreSummary.of(view).rollback().state()).isEqualTo("RUNNING");
        assertThat(RestoreSummary.of(view).rollbackPossible()).isFalse();
        view.apply(RollbackFailed.of("r2", "DynamoDB away"));
        var failed = RestoreSummary.of(view);
        assertThat(failed.rollback().state()).isEqualTo("FAILED");
        assertThat(failed.rollback().reason()).isEqualTo("DynamoDB away");
        assertThat(failed.rollbackPossible()).isTrue();
        view.apply(RollbackStarted.of("r2", "ops", "again"));
        view.apply(RollbackCompleted.of("r2", TABLE, 4, 1, 2, 7, 10));

        // Then the summary shows what the rollback put back, and that no other may start
        var summary = RestoreSummary.of(view);
        assertThat(summary.state()).isEqualTo(RestoreState.FAILED);
        assertThat(summary.rollback())
                .isEqualTo(new RestoreSummary.RollbackInfo(
                        "COMPLETED",
                        summary.rollback().startedAt(),
                        summary.rollback().endedAt(),
                        4L,
                        1L,
                        2L,
                        null));
        assertThat(summary.rollbackPossible()).isFalse();
        assertThat(summary.progress()).isNull();
    }

    @Test
    void linksTheFileOfAnExportAndSaysWhenTheCapStoppedIt() {
        // Given a file export that stopped at its cap of 5 items, of 9 matching
        var view = new RestoreView("r3");
        view.apply(RestoreAccepted.of(aRestore("r3")
                .into(new Destination.File(null, new Destination.Delivery.Download()))
                .normalized()));
        view.apply(new ExportCompleted(
                "e", "r3", 1, Instant.now(), "vault", "exports/r3/r3.csv", 5, 512, "ab12", true, 9));

        // Then the summary links the download and explains the cap
        var file = RestoreSummary.of(view).file();
        assertThat(file.download()).isEqualTo("/restores/r3/download");
        assertThat(file.items()).isEqualTo(5);
        assertThat(file.matching()).isEqualTo(9);
        assertThat(file.note()).contains("cap of 5 items").contains("Narrow the filter");
    }

    @Test
    void marksADryRunAndKeepsItsDiff() {
        // Given a completed dry run in place
        var view = new RestoreView("r4");
        view.apply(RestoreAccepted.of(aRestore("r4").inPlace().dryRun().normalized()));
        view.apply(RestoreCompleted.of("r4", TABLE, 0, 0, 3, 10).dryRun(Diff.empty()));

        // Then the summary says dry run with the diff, and it may not be rolled back
        var summary = RestoreSummary.of(view);
        assertThat(summary.dryRun()).isTrue();
        assertThat(summary.diff()).isEqualTo(Diff.empty());
        assertThat(summary.rollbackPossible()).isFalse();
    }
}
