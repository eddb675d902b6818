package io.dynarestore.planner.fleet;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
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

    /** A shared delta that could not be built: its message says which part and why, for the restore's failure. */
    public static final class PartFailed extends RuntimeException {
        PartFailed(String message) {
            super(message);
        }
    }

    private final DeltaStager stager;
    private final S3Client s3;
    private final VaultLayout layout;
    private final EventPublisher publisher;
    private final PlanningFleet fleet;
    private final PlannerProperties.Fleet settings;
    private final Duration poll;

    public SharedDeltas(
            DeltaStager stager,
            S3Client s3,
            VaultLayout layout,
            EventPublisher publisher,
            PlanningFleet fleet,
            PlannerProperties.Fleet settings,
            Duration poll) {
        this.stager = stager;
        this.s3 = s3;
        this.layout = layout;
        this.publisher = publisher;
        this.fleet = fleet;
        this.settings = settings;
        this.poll = poll;
    }

    /**
     * Stages the delta of {@code resolution}: of every key, or for a record restore ({@code records}
     * not null) of the keys its key filters may match.
     */
    public DeltaStager.StagedDelta stage(
            String restoreId, PitrCoverage.Resolution resolution, KeySchema key, Scope.Records records) {
        var input = DeltaInput.of(resolution, key.names(), records == null ? null : key, records);
        var replicas = input.lines() > settings.sharedAbove() ? fleet.partitionPerReplica() : List.<Integer>of();
        int parts = Math.min(settings.maxParts(), replicas.size());
        if (parts <= 1) {
            return stager.stage(restoreId, input);
        }
        String attempt = UUID.randomUUID().toString().replace("-", "");
        var files = PartFiles.of(layout, restoreId, attempt);
        s3.putObject(
                b -> b.bucket(layout.bucket()).key(files.input()).contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(input)));
        for (int part = 0; part < parts; part++) {
            var work = DeltaPartDispatched.of(restoreId, attempt, part, parts);
            EventPublisher.await(publisher.send(Topic.PLANNING, replicas.get(part), work.subject(), work));
        }
        log.info(
                "restore {}: {} changes, delta shared in {} parts (attempt {})",
                restoreId,
                input.lines(),
                parts,
                attempt);
        return stager.merge(restoreId, await(restoreId, files, parts));
    }

    /** Every part's staged delta, in part order, once each has its outcome. */
    private List<DeltaStager.StagedDelta> await(String restoreId, PartFiles files, int parts) {
        var built = new TreeMap<Integer, DeltaStager.StagedDelta>();
        var read = new HashSet<String>(); // an outcome is written once: each is fetched once
        long deadline = System.nanoTime() + settings.partTimeout().toNanos();
        while (built.size() < parts) {
            for (var page :
                    s3.listObjectsV2Paginator(b -> b.bucket(layout.bucket()).prefix(files.outcomes()))) {
                for (var object : page.contents()) {
                    if (!read.add(object.key())) {
                        continue;
                    }
                    var outcome = Json.mapper()
                            .readValue(
                                    s3.getObjectAsBytes(b ->
                                                    b.bucket(layout.bucket()).key(object.key()))
                                            .asByteArray(),
                                    PartOutcome.class);
                    if (outcome.failure() != null) {
                        throw new PartFailed("Part " + outcome.part() + " of " + parts + " of the point-in-time "
                                + "delta failed: " + outcome.failure());
                    }
                    if (outcome.part() >= 0 && outcome.part() < parts) {
                        built.put(outcome.part(), outcome.staged());
                    }
                }
            }
            if (built.size() == parts) {
                break;
            }
            if (System.nanoTime() - deadline > 0) {
                var missing = new ArrayList<Integer>();
                for (int p = 0; p < parts; p++) {
                    if (!built.containsKey(p)) {
                        missing.add(p);
                    }
                }
                throw new PartFailed("Parts " + missing + " of the " + parts + " parts of the point-in-time delta were "
                        + "not built within planner.fleet.part-timeout (" + settings.partTimeout() + "). Check that "
                        + "planner replicas read " + Topic.PLANNING.topicName() + " (their health shows the "
                        + "planning consumer), then submit the restore again with a new restoreId.");
            }
            sleep();
        }
        log.info("restore {}: every part of {} is built", restoreId, parts);
        return List.copyOf(built.values());
    }

    private void sleep() {
        try {
            Thread.sleep(poll.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PartFailed("The planning was interrupted while the parts of its delta were built.");
        }
    }
}
