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
            new Destination.NewTable(null, null, "orders-restored", null), null)
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
}
