package io.dynarestore.api.restores;

import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.Diff;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestoreProgressed;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.contracts.status.RollbackCompleted;
import io.dynarestore.contracts.status.RollbackFailed;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.contracts.status.Verification;
import io.dynarestore.core.restore.RollbackPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An immutable snapshot of a restore, as the REST API, the web page and dashboards show it; taken
 * from a {@link RestoreView} under its lock. {@code progress} is the planner's latest rates and
 * ETA while the restore runs. {@code recordFilters} is a record restore's filters in words (null for a whole
 * table), kept after the restore ends, so that whoever reads it later can tell which records it took.
 */
public record RestoreSummary(
        String restoreId,
        RestoreState state,
        Source source,
        Instant pointInTime,
        TableRef destination,
        RestorePlanned.Strategy strategy,
        String strategyReason,
        RestorePlanned.Conflicts conflicts,
        Integer segments,
        int segmentsCompleted,
        long itemsWritten,
        long itemsOverwritten,
        long itemsUnchanged,
        long itemsDeleted,
        Long estimatedItems,
        List<String> warnings,
        RejectionCode code,
        String reason,
        Map<Integer, String> failedSegments,
        Instant createdAt,
        Instant updatedAt,
        List<RestoreView.Milestone> timeline,
        FileInfo file,
        Instant cancelRequestedAt,
        Boolean dryRun,
        Diff diff,
        Verification verification,
        RollbackInfo rollback,
        boolean rollbackPossible,
        String principal,
        String requestedBy,
        Progress progress,
        String recordFilters) {

    static RestoreSummary of(RestoreView view) {
        var request = view.request();
        var plan = view.plan();
        return new RestoreSummary(
                view.restoreId(),
                view.state(),
                request == null ? null : request.source(),
                view.pointInTime(),
                view.destination(),
                plan == null ? null : plan.strategy(),
                plan == null ? null : plan.strategyReason(),
                view.conflicts(),
                plan == null ? null : plan.segments(),
                view.completedSegments().size(),
                view.itemsWritten(),
                view.itemsOverwritten(),
                view.itemsUnchanged(),
                view.itemsDeleted(),
                plan == null ? null : plan.estimatedItems(),
                view.warnings(),
                view.code(),
                view.reason(),
                view.failedSegments().isEmpty() ? null : Map.copyOf(view.failedSegments()),
                view.createdAt(),
                view.updatedAt(),
                view.timeline(),
                FileInfo.of(view),
                view.cancellation() == null ? null : view.cancellation().occurredAt(),
                view.dryRun() ? Boolean.TRUE : null,
                view.diff(),
                view.verification(),
                RollbackInfo.of(view),
                RollbackPolicy.refusal(view) == null,
                view.principal(),
                request == null ? null : request.requestedBy(),
                Progress.of(view.progress()),
                view.recordFilters());
    }

    /**
     * The rollback of a restore: RUNNING, COMPLETED or FAILED, when it started and ended, and
     * what it put back (items restored to their prior image, items created by the restore and
     * deleted again, keys already as they were).
     */
    public record RollbackInfo(
            String state,
            Instant startedAt,
            Instant endedAt,
            Long itemsRestored,
            Long itemsDeleted,
            Long itemsUnchanged,
            String reason) {

        static RollbackInfo of(RestoreView view) {
            var started = view.rollbackStarted();
            if (started == null) {
                return null;
            }
            if (view.rollbackEnd() instanceof RollbackCompleted c) {
                return new RollbackInfo(
                        "COMPLETED",
                        started.occurredAt(),
                        c.occurredAt(),
                        c.itemsRestored(),
                        c.itemsDeleted(),
                        c.itemsUnchanged(),
                        null);
            }
            if (view.rollbackEnd() instanceof RollbackFailed f) {
                return new RollbackInfo("FAILED", started.occurredAt(), f.occurredAt(), null, null, null, f.reason());
            }
            return new RollbackInfo("RUNNING", started.occurredAt(), null, null, null, null, null);
        }
    }

    /**
     * A granular-recovery file: where to download it, its rows, size and SHA-256, and whether the
     * cap stopped it short of the {@code matching} items.
     */
    public record FileInfo(
            String download, long items, long bytes, String sha256, boolean capped, long matching, String note) {

        static FileInfo of(RestoreView view) {
            ExportCompleted e = view.exportCompleted();
            if (e == null) {
                return null;
            }
            return new FileInfo(
                    "/restores/" + view.restoreId() + "/download",
                    e.items(),
                    e.bytes(),
                    e.sha256(),
                    e.capped(),
                    e.matching(),
                    e.capped()
                            ? "The export stopped at its cap of " + e.items()
                                    + " items; more items match. Narrow the filter, or restore the records into a table."
                            : null);
        }
    }

    /**
     * The planner's latest rates for a running restore: items and write units per second since its
     * report before, the seconds left ({@code null} without a rate or estimate) and the percent of
     * the estimated items.
     */
    public record Progress(double itemsPerSecond, double wcuPerSecond, Long etaSeconds, Double percent) {

        static Progress of(RestoreProgressed p) {
            return p == null ? null : new Progress(p.itemsPerSecond(), p.wcuPerSecond(), p.etaSeconds(), p.percent());
        }
    }
}
