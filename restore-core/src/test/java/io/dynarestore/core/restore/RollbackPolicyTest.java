package io.dynarestore.core.restore;

import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.Diff;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestoreRejected;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.contracts.status.RollbackCompleted;
import io.dynarestore.contracts.status.RollbackFailed;
import io.dynarestore.contracts.status.RollbackStarted;
import io.dynarestore.contracts.status.TableRef;
import org.junit.jupiter.api.Test;

class RollbackPolicyTest {

    static final TableRef TABLE = new TableRef("000000000000", "us-east-1", "orders");

    static RestoreView viewOf(RestoreRequested request, RestoreEvent... events) {
        var view = RestoreView.requested(request);
        view.apply(RestoreAccepted.of(request));
        for (RestoreEvent e : events) {
            view.apply(e);
        }
        return view;
    }

    @Test
    void allowsTheRollbackOfAnInPlaceRestoreThatEnded() {
        // Given in-place restores that completed and that failed
        var completed = viewOf(aRestore("r1").inPlace().normalized(), RestoreCompleted.of("r1", TABLE, 3, 30, 1, 5));
        var failed = viewOf(aRestore("r2").inPlace().normalized(), RestoreFailed.of("r2", "boom", 1));

        // Then both may be rolled back
        assertThat(RollbackPolicy.refusal(completed)).isNull();
        assertThat(RollbackPolicy.refusal(failed)).isNull();
    }

    @Test
    void refusesARunningRestoreAndSaysToCancelItFirst() {
        // Given a running in-place restore
        var view = viewOf(aRestore("r1").inPlace().normalized());

        // Then its rollback is refused with what to do
        assertThat(RollbackPolicy.refusal(view))
                .isEqualTo("restore r1 is ACCEPTED; cancel it first, then roll it back");
    }

    @Test
    void refusesRestoresThatChangedNoExistingTable() {
        // Given a completed restore into a new table, a file export, a dry run and a rejected request
        var created = viewOf(aRestore("r1").normalized(), RestoreCompleted.of("r1", TABLE, 3, 30, 1, 5));
        var file = viewOf(
                aRestore("r2")
                        .into(new Destination.File(null, new Destination.Delivery.Download()))
                        .normalized(),
                RestoreCompleted.of("r2", TABLE, 3, 30, 1, 5));
        var dry = viewOf(
                aRestore("r3").inPlace().dryRun().normalized(),
                RestoreCompleted.of("r3", TABLE, 0, 0, 1, 5).dryRun(Diff.empty()));
        var rejected = RestoreView.requested(aRestore("r4").inPlace().normalized());
        rejected.apply(RestoreRejected.of("r4", RejectionCode.BACKUP_EXPIRED, "backup b1 expired", null));

        // Then each is refused, saying why
        assertThat(RollbackPolicy.refusal(created)).contains("delete the table instead");
        assertThat(RollbackPolicy.refusal(file)).contains("wrote a file");
        assertThat(RollbackPolicy.refusal(dry)).contains("dry run");
        assertThat(RollbackPolicy.refusal(rejected)).contains("was rejected");
    }

    @Test
    void refusesASecondRollbackUnlessTheFirstFailed() {
        // Given an ended in-place restore whose rollback runs
        var view = viewOf(
                aRestore("r1").inPlace().normalized(),
                RestoreFailed.of("r1", "boom", 3),
                RollbackStarted.of("r1", "ops", "undo"));
        assertThat(RollbackPolicy.refusal(view)).contains("being rolled back already");

        // When that rollback fails, another may start; once one completed, none may
        view.apply(RollbackFailed.of("r1", "DynamoDB away"));
        assertThat(RollbackPolicy.refusal(view)).isNull();
        view.apply(RollbackStarted.of("r1", "ops", "again"));
        view.apply(RollbackCompleted.of("r1", TABLE, 4, 1, 2, 7, 10));

        // Then it was rolled back already
        assertThat(RollbackPolicy.refusal(view)).contains("rolled back already");
    }

    @Test
    void refusesAnUnknownRestore() {
        assertThat(RollbackPolicy.refusal(new RestoreView("nobody"))).isEqualTo("the restore is unknown");
    }
}
