package io.dynarestore.planner.fleet;

import io.dynarestore.contracts.work.SweepPartDispatched;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.staging.SweepInput;
import io.dynarestore.planner.staging.SweepStager;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Stages the sweep of a full in-place restore where it is cheapest: here when the image is small or
 * this replica is the only one, else split into one parallel Scan segment of the table per replica
 * of the planning group (ADR 0040).
 *
 * <p>Rule: as for shared deltas, the owner merges only once every part has its outcome; a part
 * that failed or is missing after the timeout fails the planning with what it said.
 */
public final class SharedSweeps {

    private static final Logger log = LoggerFactory.getLogger(SharedSweeps.class);

    private final SweepStager sweeper;
    private final DynamoClients dynamo;
    private final VaultLayout layout;
    private final PlanningFleet fleet;
    private final PlannerProperties.Fleet settings;
    private final FleetParts parts;

    public SharedSweeps(
            SweepStager sweeper,
            DynamoClients dynamo,
            S3Client s3,
            VaultLayout layout,
            EventPublisher publisher,
            PlanningFleet fleet,
            PlannerProperties.Fleet settings,
            Duration poll) {
        this.sweeper = sweeper;
        this.dynamo = dynamo;
        this.layout = layout;
        this.fleet = fleet;
        this.settings = settings;
        this.parts = new FleetParts(s3, layout, publisher, settings.partTimeout(), poll);
    }

    /** Stages the deletes of the table's keys that the image of {@code input} lacks. */
    public SweepStager.StagedSweep stage(String restoreId, SweepInput input) {
        var replicas =
                input.imageKeys() > settings.sweepSharedAbove() ? fleet.partitionPerReplica() : List.<Integer>of();
        int count = Math.min(settings.maxParts(), replicas.size());
        if (count <= 1) {
            return sweeper.stage(restoreId, input, dynamo.dynamo(input.account(), input.region()));
        }
        String attempt = UUID.randomUUID().toString().replace("-", "");
        log.info(
                "restore {}: an image of {} keys, sweep of {} shared in {} Scan segments (attempt {})",
                restoreId,
                input.imageKeys(),
                input.table(),
                count,
                attempt);
        var outcomes = parts.run(
                PartFiles.sweep(layout, restoreId, attempt),
                input,
                replicas.subList(0, count),
                part -> SweepPartDispatched.of(restoreId, attempt, part, count),
                "in-place sweep");
        return sweeper.merge(
                restoreId, outcomes.stream().map(PartOutcome::sweep).toList());
    }
}
