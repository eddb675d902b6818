package io.dynarestore.planner.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.status.Diff;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestorePlanned.Strategy;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.contracts.status.Verification;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.restore.RestoreSteps.Snapshot;
import io.dynarestore.planner.staging.DeltaStager;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a restore whose work is done: verified, it completes; a dry run completes with what it
 * found; a verification that finds a mismatch fails the restore with the details and the way
 * back. What the restore staged is removed either way.
 */
record Completion(DeltaStager stager, AwsClients aws, Clock clock, PlannerProperties.Strategy strategy) {

    private static final Logger log = LoggerFactory.getLogger(Completion.class);

    /**
     * Ends a restore whose work is done: verified, it completes; a dry run completes with what
     * it found; a verification that finds a mismatch fails the restore with the details.
     */
    RestoreEvent complete(Snapshot view) {
        RestorePlanned plan = view.plan();
        var counts = plan.strategy() == Strategy.SNAP
                ? new SegmentCompleted.Counts(plan.estimatedItems(), 0, 0, 0, 0)
                : view.counts();
        long bytes = plan.strategy() == Strategy.SNAP ? plan.estimatedBytes() : view.bytesWritten();
        var completed = RestoreCompleted.of(
                view.restoreId(),
                plan.destination(),
                counts,
                bytes,
                plan.segments(),
                Duration.between(view.createdAt(), clock.instant()).toMillis());
        Verification verification = verify(view);
        if (view.dryRun()) {
            completed = completed.dryRun(view.diff() == null ? Diff.empty() : view.diff());
        }
        completed = completed.verified(verification).withConflicts(view.conflicts());
        discardStaged(view);
        if (verification.failed()) {
            log.warn("restore {} failed its verification: {}", view.restoreId(), verification.mismatches());
            var shown = verification.mismatches().stream().limit(5).toList();
            return RestoreFailed.unverified(
                    view.restoreId(),
                    "Every segment was written, but the verification "
                            + "found " + verification.mismatches().size() + " mismatch"
                            + (verification.mismatches().size() == 1 ? "" : "es") + ": " + String.join("; ", shown)
                            + (shown.size() < verification.mismatches().size() ? "; ..." : "")
                            + ". The items written stay in "
                            + plan.destination().tableName()
                            + (view.request().destination() instanceof Destination.NewTable
                                    ? "; restore again into a new table."
                                    : "; roll the restore back (POST /restores/" + view.restoreId()
                                            + "/rollback) or restore again."),
                    view.itemsWritten(),
                    verification);
        }
        return completed;
    }

    /** The verification of each strategy (see {@link Verifier} for item writes). */
    private Verification verify(Snapshot view) {
        RestorePlanned plan = view.plan();
        if (view.dryRun()) {
            return Verification.skipped("A dry run writes nothing; there is nothing to verify.");
        }
        switch (plan.strategy()) {
            case ITEM_WRITES -> {
                TableRef t = plan.destination();
                return Verifier.verify(
                        plan,
                        view.completedSegments(),
                        view.checks(),
                        aws.dynamo(t.account(), t.region()),
                        t.tableName());
            }
            case IMPORT_FROM_S3 -> {
                return verifyImport(view);
            }
            case FILE_EXPORT -> {
                return verifyFile(view);
            }
            default -> {
                return Verification.skipped("DynamoDB restored the table from its own backup; it reports no "
                        + "counts to verify against.");
            }
        }
    }

    /** An import: DynamoDB's count of imported items against the items staged for it. */
    private static Verification verifyImport(Snapshot view) {
        long staged = view.importStaged() == null ? 0 : view.importStaged().items();
        long imported =
                view.importCompleted() == null ? 0 : view.importCompleted().itemsImported();
        if (imported != staged) {
            return new Verification(
                    Verification.Status.FAILED,
                    0,
                    imported,
                    null,
                    0,
                    0,
                    List.of("DynamoDB's import loaded " + imported + " items but " + staged + " were staged"),
                    "ImportTable's count compared with the staged items.");
        }
        return new Verification(
                Verification.Status.PASSED,
                0,
                imported,
                null,
                0,
                0,
                List.of(),
                "DynamoDB's ImportTable loaded all " + staged + " staged items.");
    }

    /** A file: its rows against the matching items (at most the cap). */
    private Verification verifyFile(Snapshot view) {
        var e = view.exportCompleted();
        if (e == null) {
            return Verification.skipped("No file was reported.");
        }
        long expected = e.capped() ? Math.min(e.matching(), strategy.exportCap()) : e.matching();
        if (e.items() != expected) {
            return new Verification(
                    Verification.Status.FAILED,
                    1,
                    e.items(),
                    e.sha256(),
                    0,
                    0,
                    List.of("the file holds " + e.items() + " rows but " + expected + " items match"),
                    "Rows of the file compared with the matching items.");
        }
        return new Verification(
                Verification.Status.PASSED,
                1,
                e.items(),
                e.sha256(),
                0,
                0,
                List.of(),
                "The file holds a row for each of the " + expected + " items it should; its SHA-256 is " + e.sha256()
                        + ".");
    }

    private void discardStaged(Snapshot view) {
        RestorePlanned plan = view.plan();
        if (view.pointInTime() != null || plan.deltaSegments() > 0 || plan.strategy() == Strategy.IMPORT_FROM_S3) {
            try {
                stager.discard(view.restoreId());
            } catch (RuntimeException e) {
                log.warn(
                        "restore {}: could not remove what it staged (a lifecycle rule on _staging/ will): {}",
                        view.restoreId(),
                        e.toString());
            }
        }
    }
}
