package io.dynarestore.protector.retention;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.RestoreRequests;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.SourceRef;
import io.dynarestore.contracts.status.TableRef;
import java.time.Instant;

/** Object Mother of the status events a restore of table {@code orders} goes through. */
final class RestoreEvents {

    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    static final String TABLE = "orders";

    private RestoreEvents() {}

    static RestoreAccepted acceptedOfBackup(String restoreId, String backupId) {
        return RestoreAccepted.of(request(restoreId, new Source(ACCOUNT, REGION, TABLE, backupId, null, null)));
    }

    static RestoreAccepted acceptedAt(String restoreId, Instant pointInTime) {
        return RestoreAccepted.of(
                request(restoreId, new Source(ACCOUNT, REGION, TABLE, null, pointInTime.toString(), null)),
                pointInTime,
                null,
                "ann");
    }

    static RestoreAccepted acceptedOfLatest(String restoreId) {
        return RestoreAccepted.of(request(restoreId, new Source(null, null, TABLE, null, "latest", null)));
    }

    static RestorePlanned plannedOn(String restoreId, String backupId, Instant takenAt) {
        return RestorePlanned.of(
                restoreId,
                RestorePlanned.Strategy.ITEM_WRITES,
                new SourceRef(ACCOUNT, REGION, TABLE, backupId, takenAt),
                new TableRef(ACCOUNT, REGION, "orders-restored"),
                1,
                10,
                1_000,
                10);
    }

    static RestoreCompleted completed(String restoreId) {
        return RestoreCompleted.of(restoreId, new TableRef(ACCOUNT, REGION, "orders-restored"), 10, 1_000, 1, 2_000);
    }

    static RestoreFailed failed(String restoreId) {
        return RestoreFailed.of(restoreId, "the destination was deleted", 3);
    }

    private static RestoreRequested request(String restoreId, Source source) {
        return RestoreRequests.aRestore(restoreId)
                .requestedBy("ann")
                .from(source)
                .into(new Destination.NewTable(ACCOUNT, REGION, "orders-restored", null))
                .normalized();
    }
}
