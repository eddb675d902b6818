package io.dynarestore.planner.restore;

import static io.dynarestore.planner.restore.RestoreSteps.publish;

import io.dynarestore.contracts.status.CapacityRaiseStarted;
import io.dynarestore.contracts.status.CapacityRestored;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.capacity.CapacityManager;
import io.dynarestore.planner.restore.RestoreSteps.Outcome;
import io.dynarestore.planner.restore.RestoreSteps.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts back the write capacity raised for a restore, whatever became of the restore; a put-back
 * DynamoDB refuses (decreases used up for the day) is tried again after {@code putBackRetry}.
 */
record CapacityPutBack(
        CapacityManager capacity, EventPublisher publisher, PlannerProperties.Capacity capacitySettings) {

    private static final Logger log = LoggerFactory.getLogger(CapacityPutBack.class);

    Outcome putBack(Snapshot view) {
        CapacityRaiseStarted raise = view.capacityRaised();
        var result = capacity.putBack(raise.table(), raise.original());
        if (result instanceof CapacityManager.PutBack.Later later) {
            log.warn(
                    "restore {}: {}; trying again in {}",
                    view.restoreId(),
                    later.reason(),
                    capacitySettings.putBackRetry());
            return Outcome.later(capacitySettings.putBackRetry());
        }
        var done = (CapacityManager.PutBack.Done) result;
        log.info(
                "restore {}: write capacity of {} put back to {}",
                view.restoreId(),
                raise.table().tableName(),
                done.restored());
        return Outcome.of(
                publish(publisher, CapacityRestored.of(view.restoreId(), raise.table(), done.restored(), done.note())));
    }
}
