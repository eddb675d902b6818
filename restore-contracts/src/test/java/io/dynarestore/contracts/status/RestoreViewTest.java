package io.dynarestore.contracts.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RestoreViewTest {

    static final TableRef TABLE = new TableRef("000000000000", "us-east-1", "orders-restored");
    static final RestoreRequested REQUEST = new RestoreRequested("r1", null, null, null, null, null,
            Source.backup("000000000000", "us-east-1", "orders", "b1"), new Scope.Full(),
            new Destination.NewTable(null, null, "orders-restored", null), null, null)
            .normalized("r1", "e1", Instant.EPOCH);

    /** A restore of three segments, planned and with its destination ready. */
    static RestoreView running() {
        var view = new RestoreView("r1");
        view.apply(RestoreAccepted.of(REQUEST));
        view.apply(RestorePlanned.of("r1", RestorePlanned.Strategy.ITEM_WRITES,
                new SourceRef("000000000000", "us-east-1", "orders", "b1", Instant.EPOCH), TABLE, 3, 30, 3000, 30));
        view.apply(DestinationReady.of("r1", TABLE, true));
        return view;
    }

    @Test
    void countsASegmentThatCompletesTwiceOnce() {
        // Given a planned restore of three segments
        var view = running();

        // When segment 0 completes twice (a replaced writer redid it) and segment 1 is halfway
        view.apply(SegmentCompleted.of("r1", 0, 10, 1000, 10, "w1", 5));
        view.apply(SegmentProgressed.of("r1", 1, 5, 500, "w2"));
        view.apply(SegmentCompleted.of("r1", 0, 10, 1000, 10, "w3", 5));

        // Then it is running with 15 items and one segment done
        var summary = view.summary();
        assertThat(summary.state()).isEqualTo(RestoreState.RUNNING);
        assertThat(summary.segmentsCompleted()).isEqualTo(1);
        assertThat(summary.itemsWritten()).isEqualTo(15);
        assertThat(summary.timeline()).extracting(RestoreView.Milestone::state)
                .containsExactly(RestoreState.ACCEPTED, RestoreState.PLANNED, RestoreState.RUNNING);
    }

    @Test
    void countsWhatCancelledSegmentsWroteOnceAndEndsCancelled() {
        // Given a running restore of three segments, one done and one halfway
        var view = running();
        view.apply(SegmentCompleted.of("r1", 0, 10, 1000, 10, "w1", 5));
        view.apply(SegmentProgressed.of("r1", 1, 4, 400, "w2"));

        // When it is cancelled: segment 1 stops after 6 items (twice reported), segment 2 never started
        view.apply(CancellationStarted.of("r1", "ops", "wrong backup"));
        view.apply(SegmentCancelled.of("r1", 1, 6, 600, "w2"));
        view.apply(SegmentCancelled.of("r1", 1, 6, 600, "w2"));
        view.apply(SegmentCancelled.of("r1", 2, 0, 0, "w3"));
        assertThat(view.itemsWritten()).isEqualTo(16);
        assertThat(view.cancelledSegments()).containsOnlyKeys(1, 2);
        view.apply(RestoreCancelled.of("r1", 16, "16 items were written to orders-restored and stay there."));

        // Then it is CANCELLED with 16 items, the note as its reason, and the cancel in its timeline
        var summary = view.summary();
        assertThat(summary.state()).isEqualTo(RestoreState.CANCELLED);
        assertThat(summary.itemsWritten()).isEqualTo(16);
        assertThat(summary.reason()).contains("stay there");
        assertThat(summary.cancelRequestedAt()).isNotNull();
        assertThat(summary.timeline()).extracting(RestoreView.Milestone::event)
                .containsSubsequence("CancellationStarted", "RestoreCancelled");
        // and a late completion changes nothing
        view.apply(SegmentCompleted.of("r1", 2, 99, 9900, 99, "w4", 5));
        assertThat(view.summary().itemsWritten()).isEqualTo(16);
    }

    @Test
    void neverLeavesATerminalState() {
        // Given a completed restore
        var view = new RestoreView("r1");
        view.apply(RestoreAccepted.of(REQUEST));
        view.apply(RestoreCompleted.of("r1", TABLE, 30, 3000, 3, 100));

        // When a late progress report and a failure arrive
        view.apply(SegmentProgressed.of("r1", 2, 1, 1, "w"));
        view.apply(RestoreFailed.of("r1", "late", 0));

        // Then it stays completed with its final count
        assertThat(view.state()).isEqualTo(RestoreState.COMPLETED);
        assertThat(view.itemsWritten()).isEqualTo(30);
    }

    @Test
    void keepsTheReasonOfARejection() {
        var view = new RestoreView("r1");
        view.apply(RestoreRejected.of("r1", RejectionCode.BACKUP_EXPIRED, "backup b1 expired", null));
        assertThat(view.summary().state()).isEqualTo(RestoreState.REJECTED);
        assertThat(view.summary().reason()).isEqualTo("backup b1 expired");
        assertThat(view.summary().code()).isEqualTo(RejectionCode.BACKUP_EXPIRED);
    }

    static final RestoreRequested IN_PLACE = new RestoreRequested("r2", null, null, null, null, null,
            Source.backup("000000000000", "us-east-1", "orders", "b1"), new Scope.Full(),
            new Destination.InPlace(), null, null).normalized("r2", "e2", Instant.EPOCH);

    @Test
    void foldsOneRollbackAfterTheEndAndAllowsAnotherOnlyAfterAFailure() {
        // Given a running in-place restore
        var view = new RestoreView("r2");
        view.apply(RestoreAccepted.of(IN_PLACE));
        assertThat(view.rollbackRefusal()).contains("cancel it first");

        // When a rollback is started before it ended, it is not folded
        view.apply(RollbackStarted.of("r2", "ops", "too early"));
        assertThat(view.rollingBack()).isFalse();

        // When it fails, then its rollback starts and fails
        view.apply(RestoreFailed.of("r2", "boom", 3));
        assertThat(view.rollbackRefusal()).isNull();
        view.apply(RollbackStarted.of("r2", "ops", "undo"));
        assertThat(view.rollingBack()).isTrue();
        assertThat(view.rollbackRefusal()).contains("being rolled back already");
        view.apply(RollbackFailed.of("r2", "DynamoDB away"));
        assertThat(view.summary().rollback().state()).isEqualTo("FAILED");
        assertThat(view.summary().rollbackPossible()).isTrue();

        // Then it may be rolled back again, once: a completed rollback ends it for good
        view.apply(RollbackStarted.of("r2", "ops", "again"));
        view.apply(RollbackCompleted.of("r2", TABLE, 4, 1, 2, 7, 10));
        view.apply(RollbackStarted.of("r2", "ops", "a third time"));
        assertThat(view.rollingBack()).isFalse();
        var summary = view.summary();
        assertThat(summary.state()).isEqualTo(RestoreState.FAILED);
        assertThat(summary.rollback()).isEqualTo(new RestoreView.RollbackInfo("COMPLETED",
                summary.rollback().startedAt(), summary.rollback().endedAt(), 4L, 1L, 2L, null));
        assertThat(view.rollbackRefusal()).contains("rolled back already");
        assertThat(summary.rollbackPossible()).isFalse();
    }

    @Test
    void refusesToRollBackNewTablesAndDryRuns() {
        // Given a completed restore into a new table, and a completed dry run in place
        var created = running();
        created.apply(RestoreCompleted.of("r1", TABLE, 30, 3000, 3, 10));
        var dry = new RestoreView("r3");
        dry.apply(RestoreAccepted.of(new RestoreRequested("r3", null, null, null, null, null,
                Source.backup("000000000000", "us-east-1", "orders", "b1"), null, new Destination.InPlace(), null,
                true).normalized("r3", "e3", Instant.EPOCH)));
        dry.apply(RestoreCompleted.of("r3", TABLE, 0, 0, 3, 10).dryRun(Diff.empty()));

        // Then neither may be rolled back, each saying why
        assertThat(created.rollbackRefusal()).contains("delete the table");
        assertThat(dry.rollbackRefusal()).contains("dry run");
        assertThat(dry.summary().dryRun()).isTrue();
        assertThat(dry.summary().diff()).isEqualTo(Diff.empty());
    }

    @Test
    void sumsTheDiffsOfDrySegmentsKeepingFiveSamplesOfEachKind() {
        // Given two dry-run segments, each with four creates sampled
        var view = running();
        var samples = java.util.stream.IntStream.range(0, 4).mapToObj(i -> new Diff.Sample(Diff.Change.CREATE,
                "{\"pk\":{\"S\":\"" + i + "\"}}", null)).toList();
        view.apply(SegmentCompleted.of("r1", 0, 0, 0, 0, "w", 1).withDiff(new Diff(4, 1, 2, 0, 3, samples)));
        view.apply(SegmentCompleted.of("r1", 1, 0, 0, 0, "w", 1).withDiff(new Diff(4, 0, 0, 5, 0, samples)));
        view.apply(SegmentCompleted.of("r1", 1, 0, 0, 0, "w", 1).withDiff(new Diff(4, 0, 0, 5, 0, samples)));

        // Then the diff adds the counts of each segment once, with five samples of creates
        Diff diff = view.diff();
        assertThat(diff.create()).isEqualTo(8);
        assertThat(diff.overwrite()).isEqualTo(1);
        assertThat(diff.equal()).isEqualTo(2);
        assertThat(diff.delete()).isEqualTo(5);
        assertThat(diff.skipped()).isEqualTo(3);
        assertThat(diff.samples()).hasSize(Diff.SAMPLES_PER_KIND);
    }
}
