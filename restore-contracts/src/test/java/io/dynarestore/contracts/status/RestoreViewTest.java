package io.dynarestore.contracts.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.RestoreRequests;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RestoreViewTest {

    static final TableRef TABLE = new TableRef("000000000000", "us-east-1", "orders-restored");
    static final RestoreRequested REQUEST = RestoreRequests.aRestore("r1").normalized();

    /** A restore of three segments, planned and with its destination ready. */
    static RestoreView running() {
        var view = new RestoreView("r1");
        view.apply(RestoreAccepted.of(REQUEST));
        view.apply(RestorePlanned.of(
                "r1",
                RestorePlanned.Strategy.ITEM_WRITES,
                new SourceRef("000000000000", "us-east-1", "orders", "b1", Instant.EPOCH),
                TABLE,
                3,
                30,
                3000,
                30));
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
        assertThat(view.state()).isEqualTo(RestoreState.RUNNING);
        assertThat(view.completedSegments()).hasSize(1);
        assertThat(view.itemsWritten()).isEqualTo(15);
        assertThat(view.timeline())
                .extracting(RestoreView.Milestone::state)
                .containsExactly(RestoreState.ACCEPTED, RestoreState.PLANNED, RestoreState.RUNNING);
    }

    @Test
    void countsASplitExportsPartsAsTheyAreStagedThenTheFilesOwnRows() {
        // Given a split export of two parts and a merge
        var view = running();

        // When its parts are staged with 1,200 and 1,800 rows
        view.apply(SegmentCompleted.of("r1", 0, 1_200, 60_000, 0, "e1", 5));
        view.apply(SegmentCompleted.of("r1", 1, 1_800, 90_000, 0, "e2", 5));

        // Then dashboards see 3,000 items so far
        assertThat(view.itemsWritten()).isEqualTo(3_000);

        // and When the merge writes the file, stopped at its cap of 2,000 rows, Then the file's count replaces the
        // parts'
        view.apply(SegmentCompleted.of("r1", 2, 0, 0, 0, "e1", 5));
        view.apply(ExportCompleted.of("r1", "vault", "exports/r1.csv", 2_000, 100_000, "ab", true, 3_000));
        assertThat(view.itemsWritten()).isEqualTo(2_000);
        assertThat(view.bytesWritten()).isEqualTo(100_000);
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
        assertThat(view.state()).isEqualTo(RestoreState.CANCELLED);
        assertThat(view.itemsWritten()).isEqualTo(16);
        assertThat(view.reason()).contains("stay there");
        assertThat(view.cancellation()).isNotNull();
        assertThat(view.timeline())
                .extracting(RestoreView.Milestone::event)
                .containsSubsequence("CancellationStarted", "RestoreCancelled");
        // and a late completion changes nothing
        view.apply(SegmentCompleted.of("r1", 2, 99, 9900, 99, "w4", 5));
        assertThat(view.itemsWritten()).isEqualTo(16);
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
        assertThat(view.state()).isEqualTo(RestoreState.REJECTED);
        assertThat(view.reason()).isEqualTo("backup b1 expired");
        assertThat(view.code()).isEqualTo(RejectionCode.BACKUP_EXPIRED);
    }

    static final RestoreRequested IN_PLACE =
            RestoreRequests.aRestore("r2").inPlace().normalized();

    @Test
    void foldsOneRollbackAfterTheEndAndAllowsAnotherOnlyAfterAFailure() {
        // Given a running in-place restore
        var view = new RestoreView("r2");
        view.apply(RestoreAccepted.of(IN_PLACE));

        // When a rollback is started before it ended, it is not folded
        view.apply(RollbackStarted.of("r2", "ops", "too early"));
        assertThat(view.rollingBack()).isFalse();
        assertThat(view.rollbackStarted()).isNull();

        // When it fails, then its rollback starts and fails
        view.apply(RestoreFailed.of("r2", "boom", 3));
        view.apply(RollbackStarted.of("r2", "ops", "undo"));
        assertThat(view.rollingBack()).isTrue();
        view.apply(RollbackFailed.of("r2", "DynamoDB away"));
        assertThat(view.rollingBack()).isFalse();
        assertThat(view.rollbackEnd()).isInstanceOf(RollbackFailed.class);

        // Then it may be rolled back again, once: a completed rollback ends it for good
        view.apply(RollbackStarted.of("r2", "ops", "again"));
        view.apply(RollbackCompleted.of("r2", TABLE, 4, 1, 2, 7, 10));
        view.apply(RollbackStarted.of("r2", "ops", "a third time"));
        assertThat(view.rollingBack()).isFalse();
        assertThat(view.rollbackStarted().reason()).isEqualTo("again");
        assertThat(view.rollbackEnd()).isInstanceOf(RollbackCompleted.class);
        assertThat(view.state()).isEqualTo(RestoreState.FAILED);
        assertThat(view.timeline())
                .extracting(RestoreView.Milestone::event)
                .containsSubsequence(
                        "RestoreFailed", "RollbackStarted", "RollbackFailed", "RollbackStarted", "RollbackCompleted");
    }

    @Test
    void keepsThePlannersLatestProgressWhileTheRestoreRuns() {
        // Given a running restore with two progress reports
        var view = running();
        view.apply(RestoreProgressed.of("r1", 5, 500, 30L, 0, 3, 5, 10.0, 10.0, 0));
        view.apply(RestoreProgressed.of("r1", 15, 1500, 30L, 1, 3, 15, 20.0, 20.0, 2));

        // Then the latest is kept, without changing the counts the segments reported
        assertThat(view.progress().itemsPerSecond()).isEqualTo(20.0);
        assertThat(view.progress().etaSeconds()).isEqualTo(1L);
        assertThat(view.itemsWritten()).isZero();

        // and once the restore ended there is no progress to show
        view.apply(RestoreCompleted.of("r1", TABLE, 30, 3000, 3, 100));
        assertThat(view.progress()).isNull();
    }

    @ParameterizedTest
    @MethodSource("everyEventType")
    void foldsEveryTypeOfStatusEvent(Class<?> type) {
        // Given a type of restore.status event (a new one fails here until the fold has a rule for it)
        // Then the fold has a rule for it
        assertThat(RestoreFold.folds(type))
                .as("RestoreFold has a rule for %s", type.getSimpleName())
                .isTrue();
    }

    static Stream<Class<?>> everyEventType() {
        return Arrays.stream(RestoreEvent.class.getPermittedSubclasses());
    }

    @Test
    void reportsThePlannedConflictsWithThoseAStrictUndosWritersFoundCountingASegmentOnce() {
        // Given an undo whose plan left 2 keys written after its window
        var view = new RestoreView("r1");
        view.apply(RestoreAccepted.of(REQUEST));
        var planned = new RestorePlanned.Conflicts(
                2, "LEAVE", List.of(new RestorePlanned.Conflict("{\"pk\":{\"S\":\"a\"}}", null, null)));
        view.apply(RestorePlanned.of(
                        "r1",
                        RestorePlanned.Strategy.ITEM_WRITES,
                        new SourceRef("000000000000", "us-east-1", "orders", null, Instant.EPOCH),
                        TABLE,
                        3,
                        30,
                        3000,
                        30)
                .withConflicts(planned));

        // When two segments find 3 and 1 keys written since planning, and the first completes twice
        var found = new RestorePlanned.Conflict("{\"pk\":{\"S\":\"b\"}}", "{}", "{}");
        var first = SegmentCompleted.of("r1", 0, 10, 1000, 10, "w1", 5)
                .withConflicts(new RestorePlanned.Conflicts(3, "LEAVE", List.of(found)));
        view.apply(first);
        view.apply(first);
        view.apply(SegmentCompleted.of("r1", 1, 10, 1000, 10, "w1", 5)
                .withConflicts(new RestorePlanned.Conflicts(1, "LEAVE", List.of(found))));

        // Then the restore reports 6 conflicts with every sample, the plan's first
        assertThat(view.conflicts().count()).isEqualTo(6);
        assertThat(view.conflicts().samples())
                .hasSize(3)
                .first()
                .isEqualTo(planned.samples().get(0));

        // and once it completes, the end event's conflicts are the restore's
        var end = new RestorePlanned.Conflicts(7, "LEAVE", List.of());
        view.apply(RestoreCompleted.of("r1", TABLE, 20, 2000, 3, 10).withConflicts(end));
        assertThat(view.conflicts()).isEqualTo(end);
    }

    @Test
    void keepsTheDiffOfADryRunAtItsEnd() {
        // Given a dry run in place
        var dry = new RestoreView("r3");
        dry.apply(RestoreAccepted.of(
                RestoreRequests.aRestore("r3").inPlace().dryRun().normalized()));

        // When it completes with an empty diff
        dry.apply(RestoreCompleted.of("r3", TABLE, 0, 0, 3, 10).dryRun(Diff.empty()));

        // Then the view is of a dry run with that diff
        assertThat(dry.dryRun()).isTrue();
        assertThat(dry.diff()).isEqualTo(Diff.empty());
    }

    @Test
    void sumsTheDiffsOfDrySegmentsKeepingFiveSamplesOfEachKind() {
        // Given two dry-run segments, each with four creates sampled
        var view = running();
        var samples = java.util.stream.IntStream.range(0, 4)
                .mapToObj(i -> new Diff.Sample(Diff.Change.CREATE, "{\"pk\":{\"S\":\"" + i + "\"}}", null))
                .toList();
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
