package io.dynarestore.planner.fleet;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.work.DeltaPartDispatched;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.staging.DeltaInput;
import io.dynarestore.planner.staging.DeltaStager;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Stages a point-in-time delta where it is cheapest: here when it is small or this replica is the
 * only one, else split by key hash into one part per replica of the planning group, each sent to a
 * partition that replica holds (ADR 0038).
 *
 * <p>Rule: the owner stages the input, asks for every part on {@code restore.planning}, and merges
 * the parts only once each has an outcome in the vault; a part that failed, or a part missing after
 * the timeout, fails the planning with what it said. A planning taken again (the owner restarted)
 * uses a new attempt, so that no part of an earlier one is mistaken for its own.
 */
public final class SharedDeltas {

    private static final Logger log = LoggerFactory.getLogger(SharedDeltas.class);

    private final DeltaStager stager;
    private final VaultLayout layout;
    private final PlanningFleet fleet;
    private final PlannerProperties.Fleet settings;
    private final FleetParts parts;

    public SharedDeltas(
            DeltaStager stager,
            S3Client s3,
            VaultLayout layout,
            EventPublisher publisher,
            PlanningFleet fleet,
            PlannerProperties.Fleet settings,
            Duration poll) {
        this.stager = stager;
        this.layout = layout;
        this.fleet = fleet;
        this.settings = settings;
        this.parts = new FleetParts(s3, layout, publisher, settings.partTimeout(), poll);
    }

    /**
     * Stages the delta of {@code resolution}: of every key, or for a record restore ({@code records}
     * not null) of the keys its key filters may match.
     */
    public DeltaStager.StagedDelta stage(
            String restoreId, PitrCoverage.Resolution resolution, KeySchema key, Scope.Records records) {
        var input = DeltaInput.of(resolution, key.names(), records == null ? null : key, records);
        var replicas = input.lines() > settings.sharedAbove() ? fleet.partitionPerReplica() : List.<Integer>of();
        int count = Math.min(settings.maxParts(), replicas.size());
        if (count <= 1) {
            return stager.stage(restoreId, input);
        }
        String attempt = UUID.randomUUID().toString().replace("-", "");
        log.info(
                "restore {}: {} changes, delta shared in {} parts (attempt {})",
                restoreId,
                input.lines(),
                count,
                attempt);
        var outcomes = parts.run(
                PartFiles.delta(layout, restoreId, attempt),
                input,
                replicas.subList(0, count),
                part -> DeltaPartDispatched.of(restoreId, attempt, part, count),
                "point-in-time delta");
        log.info("restore {}: every part of {} is built", restoreId, count);
        return stager.merge(
                restoreId, outcomes.stream().map(PartOutcome::staged).toList());
    }
}
