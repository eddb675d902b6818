package io.dynarestore.planner.restore;

import static io.dynarestore.planner.restore.RestoreSteps.publish;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.CapacityPlan;
import io.dynarestore.contracts.status.CapacityRaiseStarted;
import io.dynarestore.contracts.status.DestinationReady;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.capacity.CapacityManager;
import io.dynarestore.planner.destination.TableCreator;
import io.dynarestore.planner.destination.TableWaiter;
import io.dynarestore.planner.destination.WarmThroughputs;
import io.dynarestore.planner.restore.RestoreSteps.Outcome;
import io.dynarestore.planner.restore.RestoreSteps.Snapshot;
import io.dynarestore.planner.restore.RestoreSteps.StepException;
import java.time.Duration;
import java.util.ArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares the destination for item writes: a new table made like the base backup's (idempotent
 * by tag), or an existing table (or the source) with its write capacity raised first where the
 * plan says so; the raise is recorded before it is made, so that whoever owns the restore after a
 * crash puts it back.
 */
record Preparation(
        Sources sources,
        TableCreator tables,
        CapacityManager capacity,
        AwsClients aws,
        EventPublisher publisher,
        Duration tableActive,
        PlannerProperties.WarmThroughput warm) {

    private static final Logger log = LoggerFactory.getLogger(Preparation.class);

    Outcome prepare(Snapshot view) {
        RestoreRequested request = view.request();
        RestorePlanned plan = view.plan();
        TableRef ref = plan.destination();
        if (request.destination() instanceof Destination.NewTable destination) {
            // the table is made like the base backup's (for a point in time, the planned base)
            Backup backup = sources.backup(request, plan.source().backupId());
            try {
                var settings = sources.tableSettings(request, backup);
                Long warmWrites = WarmThroughputs.writes(plan.estimatedWcu(), settings.onDemand(), warm);
                if (warmWrites != null) {
                    log.info(
                            "restore {}: creating {} warm for {} writes a second ({} write units to write)",
                            request.restoreId(),
                            destination.tableName(),
                            warmWrites,
                            plan.estimatedWcu());
                }
                var ready = tables.ensure(
                        request.restoreId(), destination, backup.metadata().tableDescription(), settings, warmWrites);
                return Outcome.of(
                        publish(publisher, DestinationReady.of(request.restoreId(), ref, true, ready.warnings())));
            } catch (TableCreator.DestinationException e) {
                throw new StepException(e.getMessage());
            }
        }
        // an existing table, or the source itself: raise its capacity first if the plan says so
        var events = new ArrayList<RestoreEvent>();
        var warnings = new ArrayList<String>();
        CapacityPlan capacityPlan = plan.capacity();
        if (capacityPlan != null && capacityPlan.raise()) {
            CapacityRaiseStarted raise = view.capacityRaised();
            if (raise == null) {
                var now = capacity.prepare(ref, capacityPlan);
                if (now.refusal() != null) {
                    warnings.add("Capacity was not raised after all: " + now.refusal());
                } else {
                    // durable before the change: whoever owns the restore after a crash puts these back
                    raise = CapacityRaiseStarted.of(request.restoreId(), ref, now.original(), now.raised());
                    events.add(publish(publisher, raise));
                }
            }
            if (raise != null) {
                capacity.raise(ref, raise.raised());
                log.info(
                        "restore {}: raised the write capacity of {} to {}",
                        request.restoreId(),
                        ref.tableName(),
                        raise.raised());
            }
        }
        TableWaiter.untilActive(aws.dynamo(ref.account(), ref.region()), ref.tableName(), tableActive);
        events.add(publish(publisher, DestinationReady.of(request.restoreId(), ref, false, warnings)));
        return new Outcome(events, null);
    }
}
