package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.core.filter.InvalidFilterException;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.restore.RestoreValidator.Verdict;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The checks of a request's source in the vault: a point in time is a whole second (or
 * {@code latest}, fixed to the latest restorable second) that a backup and incremental exports
 * cover; the backup exists and is unexpired; a record restore's filters apply to its table's key.
 */
record SourceCheck(VaultCatalog catalog, Clock clock) {

    /** {@link Verdict.Ok} with the backup (and the second) to restore from, or the problem. */
    Verdict check(RestoreRequested request) {
        Source source = request.source();
        Instant pointInTime = null;
        String backupId = source.backupId();
        if (source.kind() == Source.Kind.POINT_IN_TIME) {
            var coverage = PitrCoverage.of(
                    catalog.listBackups(source.account(), source.region(), source.table()),
                    catalog.listExports(source.account(), source.region(), source.table()),
                    clock.instant());
            Second second = second(source, coverage);
            if (second.refused() != null) {
                return second.refused();
            }
            pointInTime = second.at();
            var resolution = coverage.resolve(pointInTime);
            if (resolution.isEmpty()) {
                return Verdict.problem(
                        RejectionCode.POINT_NOT_RESTORABLE,
                        "/source/pointInTime",
                        "Table "
                                + source.table() + " cannot be restored to " + pointInTime
                                + ": no backup and incremental "
                                + "exports cover it. " + coverage.nearest(pointInTime) + " See GET /tables/"
                                + source.table()
                                + "/pitr-windows.");
            }
            backupId = resolution.get().base().backupId();
            Verdict undo = UndoCheck.problem(request, pointInTime, coverage);
            if (undo != null) {
                return undo;
            }
        } else if (source.undo() != null) {
            return UndoCheck.problem(request, null, null);
        }
        Optional<Backup> found = catalog.findBackup(source.account(), source.region(), source.table(), backupId);
        if (found.isEmpty()) {
            return Verdict.problem(
                    RejectionCode.BACKUP_NOT_FOUND,
                    "/source/backupId",
                    "There is no backup "
                            + backupId + " of table " + source.table() + " in account " + source.account()
                            + " region " + source.region() + ". List the table's backups with GET /tables/"
                            + source.table() + "/backups and use one of their backupId values.");
        }
        Backup backup = found.get();
        if (backup.metadata().expiredAt(clock.instant())) {
            return Verdict.problem(
                    RejectionCode.BACKUP_EXPIRED,
                    "/source/backupId",
                    "Backup " + backupId
                            + " of table " + source.table() + " expired at "
                            + backup.metadata().expiresAt()
                            + " and can no longer be restored. Choose an unexpired backup (GET /tables/"
                            + source.table()
                            + "/backups).");
        }
        Verdict filters = filterProblem(request, backup);
        return filters != null ? filters : new Verdict.Ok(backup, null, false, pointInTime);
    }

    /** A record scope's filters checked against the backup's keys; null when they apply. */
    private static Verdict filterProblem(RestoreRequested request, Backup backup) {
        if (request.scope() instanceof Scope.Records records) {
            try {
                RecordFilter.compile(records, KeySchema.of(backup.metadata().tableDescription()));
            } catch (InvalidFilterException e) {
                return new Verdict.Problem(
                        RejectionCode.INVALID_FILTER,
                        "The filters cannot be applied to table "
                                + request.source().table() + ": " + e.getMessage() + ".",
                        e.errors());
            }
        }
        return null;
    }

    /** The second a point-in-time source names, or the verdict that refuses it: one of the two. */
    private record Second(Instant at, Verdict refused) {

        static Second of(Instant at) {
            return new Second(at, null);
        }

        static Second refusedBy(Verdict verdict) {
            return new Second(null, verdict);
        }
    }

    /** The second a point-in-time source names ({@code latest} fixed), or the problem with it. */
    private static Second second(Source source, PitrCoverage coverage) {
        if ("latest".equals(source.pointInTime())) {
            Instant latest = coverage.availability().latestRestorable();
            if (latest == null) {
                return Second.refusedBy(Verdict.problem(
                        RejectionCode.POINT_NOT_RESTORABLE,
                        "/source/pointInTime",
                        "No second of table "
                                + source.table()
                                + " is restorable: it needs an unexpired backup followed by incremental "
                                + "exports. See GET /tables/" + source.table() + "/pitr-windows."));
            }
            return Second.of(latest);
        }
        Instant pointInTime = parseInstant(source.pointInTime());
        if (pointInTime == null) {
            return Second.refusedBy(Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/source/pointInTime",
                    "pointInTime '" + source.pointInTime()
                            + "' is not an ISO-8601 time such as 2026-11-30T10:15:42Z, nor 'latest'."));
        }
        if (pointInTime.getNano() != 0) {
            return Second.refusedBy(Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/source/pointInTime",
                    "pointInTime "
                            + source.pointInTime() + " has a fraction of a second; restores are to whole seconds, "
                            + "such as " + pointInTime.truncatedTo(ChronoUnit.SECONDS) + "."));
        }
        return Second.of(pointInTime);
    }

    /** An ISO-8601 time with an offset, or {@code null} when the text is none. */
    static Instant parseInstant(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
