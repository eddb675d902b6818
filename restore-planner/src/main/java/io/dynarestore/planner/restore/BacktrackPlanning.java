package io.dynarestore.planner.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestorePlanned.Strategy;
import io.dynarestore.contracts.status.SourceRef;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.capacity.CapacityManager;
import io.dynarestore.planner.restore.RestoreSteps.StepException;
import io.dynarestore.planner.staging.BacktrackStager;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans what the change log restores alone (ADR 0031): a backtrack of an in-place restore to a
 * second, where the log proves it and it costs less than the full path, and every undo of a window.
 */
record BacktrackPlanning(
        BacktrackStager backtracks,
        ChangeLogTail tail,
        Sources sources,
        CapacityManager capacity,
        Clock clock,
        PlannerProperties.Pitr pitr,
        PlannerProperties.Strategy strategy) {

    private static final Logger log = LoggerFactory.getLogger(BacktrackPlanning.class);

    /**
     * Stages the reverts of this request if it is an undo or a backtrack, once the change log reaches
     * {@code acceptedAt} or {@link ChangeLogTail} gives up waiting; {@code null} for the full path.
     */
    BacktrackStager.StagedBacktrack stage(
            RestoreRequested request,
            Instant t,
            PitrCoverage coverage,
            Backup base,
            Instant acceptedAt,
            Supplier<PitrCoverage> listing) {
        Source.Undo undo = request.source().undo();
        boolean inPlace = request.destination() instanceof Destination.InPlace;
        if (undo == null && (!pitr.backtrack() || !inPlace)) {
            return null; // the full path: the change log is not needed, so it is not looked at
        }
        var keys = KeySchema.attributeNames(base.metadata().tableDescription().keySchema());
        // the writes made just before the request are in the capture's buffer: wait for its flush
        var s = request.source();
        coverage = tail.await(
                request.restoreId(),
                acceptedAt,
                coverage,
                listing,
                () -> sources.aws()
                        .dynamo(s.account(), s.region())
                        .describeContinuousBackups(b -> b.tableName(s.table()))
                        .continuousBackupsDescription()
                        .pointInTimeRecoveryDescription());
        var changes = coverage.changeLogAfter(t).orElse(null);
        if (undo != null) {
            Instant until = Instant.parse(undo.until());
            if (changes == null || changes.end().isBefore(until.plusSeconds(1))) {
                throw new StepException("The change log of " + request.source().table() + " no longer holds every "
                        + "write of the window up to " + until + " (an export was removed after the undo was "
                        + "accepted); submit it again for a window the log holds (GET /tables/"
                        + request.source().table() + "/pitr-windows).");
            }
            return backtracks.stage(request.restoreId(), changes, keys, until, undo.overwrites());
        }
        // the lag that matters is the log's behind the request: a wait for its tail is not held against it
        Instant asked = acceptedAt != null ? acceptedAt : clock.instant();
        String fallback = BacktrackChoice.refusal(changes, base.itemCount(), asked, pitr.backtrackMaxLag());
        if (fallback != null) {
            log.info("restore {}: in place by the full path: {}", request.restoreId(), fallback);
            return null;
        }
        return backtracks.stage(request.restoreId(), changes, keys);
    }

    /** The plan of staged reverts: item writes of the reverts alone, with no base and no sweep. */
    RestorePlanned plan(
            RestoreRequested request,
            Backup base,
            BacktrackStager.StagedBacktrack staged,
            SourceRef source,
            TableRef tableRef,
            Instant pointInTime) {
        int lsis = sources.restoredLsis(request, base);
        long wcu = staged.reverts() * (1 + lsis);
        long perItem = base.itemCount() == 0 ? 0 : bytesOf(base) / base.itemCount();
        var warnings = new ArrayList<String>(RestoreWarnings.of(request, pointInTime));
        warnings.add(BacktrackChoice.tailWarning(staged.logEnd()));
        var plan = RestorePlanned.of(
                        request.restoreId(),
                        Strategy.ITEM_WRITES,
                        source,
                        tableRef,
                        staged.files(),
                        staged.files(),
                        false,
                        staged.reverts(),
                        perItem * (staged.reverts() - staged.deletes()),
                        wcu,
                        warnings)
                .withEstimates(
                        BacktrackChoice.reason(staged, base.itemCount()),
                        null,
                        (wcu + strategy.writeUnitsPerSecond() - 1) / Math.max(1, strategy.writeUnitsPerSecond()));
        Source.Undo undo = request.source().undo();
        if (undo != null) {
            plan = plan.withConflicts(new RestorePlanned.Conflicts(
                    staged.conflicts(),
                    undo.overwrites() ? Source.Undo.OVERWRITE : Source.Undo.LEAVE,
                    staged.samples()));
        }
        return request.dry() ? plan : plan.withCapacity(capacity.plan(tableRef));
    }

    private static long bytesOf(Backup backup) {
        return backup.summary().billedSizeBytes() == null ? 0 : backup.summary().billedSizeBytes();
    }
}
