package io.dynarestore.planner.fleet;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.work.PlanningWork;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;
import java.util.function.IntFunction;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The owner's side of planning shared over the fleet: stages the input, asks for one part per
 * replica on {@code restore.planning}, and waits until every part has its outcome in the vault.
 *
 * <p>Rule: a part that failed fails the whole with the part's reason; parts missing after
 * {@code planner.fleet.part-timeout} fail it naming them. Nothing is merged before every part is in.
 */
final class FleetParts {

    private final S3Client s3;
    private final VaultLayout layout;
    private final EventPublisher publisher;
    private final Duration timeout;
    private final Duration poll;

    FleetParts(S3Client s3, VaultLayout layout, EventPublisher publisher, Duration timeout, Duration poll) {
        this.s3 = s3;
        this.layout = layout;
        this.publisher = publisher;
        this.timeout = timeout;
        this.poll = poll;
    }

    /**
     * Stages {@code input} under {@code files}, sends part {@code p} ({@code work.apply(p)}) to the
     * partition {@code replicas.get(p)}, and returns every part's outcome in part order.
     *
     * @param what what the parts build, for the messages ("point-in-time delta", "in-place sweep")
     */
    List<PartOutcome> run(
            PartFiles files, Object input, List<Integer> replicas, IntFunction<PlanningWork> work, String what) {
        int parts = replicas.size();
        s3.putObject(
                b -> b.bucket(layout.bucket()).key(files.input()).contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(input)));
        for (int part = 0; part < parts; part++) {
            var item = work.apply(part);
            EventPublisher.await(publisher.send(Topic.PLANNING, replicas.get(part), item.subject(), item));
        }
        return await(files, parts, what);
    }

    private List<PartOutcome> await(PartFiles files, int parts, String what) {
        var built = new TreeMap<Integer, PartOutcome>();
        var read = new HashSet<String>(); // an outcome is written once: each is fetched once
        long deadline = System.nanoTime() + timeout.toNanos();
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
                        throw new PartFailed("Part " + outcome.part() + " of " + parts + " of the " + what + " failed: "
                                + outcome.failure());
                    }
                    if (outcome.part() >= 0 && outcome.part() < parts) {
                        built.put(outcome.part(), outcome);
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
                throw new PartFailed("Parts " + missing + " of the " + parts + " parts of the " + what + " were "
                        + "not built within planner.fleet.part-timeout (" + timeout + "). Check that "
                        + "planner replicas read " + Topic.PLANNING.topicName() + " (their health shows the "
                        + "planning consumer), then submit the restore again with a new restoreId.");
            }
            sleep(what);
        }
        return List.copyOf(built.values());
    }

    private void sleep(String what) {
        try {
            Thread.sleep(poll.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PartFailed("The planning was interrupted while the parts of its " + what + " were built.");
        }
    }
}
