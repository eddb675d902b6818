package io.dynarestore.protector.retention;

import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCancelled;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestoreRejected;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the restores in progress read, folded from {@code restore.status}, so that retention never
 * deletes it under them. Rules: an accepted restore holds the backup it names, or, for a point in
 * time, every backup of its table taken at or before that second (the planner has not said yet
 * which base it picked); once planned, it holds exactly the base its plan names; it lets go when it
 * completes, fails, is cancelled or rejected. A held backup counts as kept, so the change log
 * after it stays too. A hold older than {@code maxAge} is a restore nobody ended (its planner lost
 * it) and holds nothing. Past {@code maxHolds} restores in progress the oldest hold is dropped, and
 * since nobody knows any more what it read, everything is held until it would have been stale:
 * retention waits rather than guesses.
 */
public final class RestoreHolds {

    /** What one restore in progress reads; {@code account}/{@code region} null when the request left them to defaults. */
    record Hold(String account, String region, String table, String backupId, Instant pointInTime, Instant since) {
        boolean covers(String account, String region, String table) {
            return this.table.equals(table)
                    && (this.account == null || this.account.equals(account))
                    && (this.region == null || this.region.equals(region));
        }

        boolean holds(BackupSummary backup) {
            return backupId != null
                    ? backupId.equals(backup.backupId())
                    : pointInTime != null && !backup.takenAt().isAfter(pointInTime);
        }
    }

    /** The backups of one table that restores in progress hold. */
    public interface Held {
        boolean holds(BackupSummary backup);

        /** Nothing held: what a table no restore reads gets. */
        Held NOTHING = backup -> false;
    }

    private final int maxHolds;
    private final Duration maxAge;
    private final Map<String, Hold> holds = new LinkedHashMap<>();
    /** Until when everything is held, because a hold was dropped for want of room. */
    private Instant holdAllUntil = Instant.MIN;

    public RestoreHolds(int maxHolds, Duration maxAge) {
        this.maxHolds = maxHolds;
        this.maxAge = maxAge;
    }

    /** Folds one status event. */
    public synchronized void fold(RestoreEvent event) {
        String id = event.restoreId();
        Instant at = event.occurredAt() == null ? Instant.now() : event.occurredAt();
        if (event instanceof RestoreAccepted accepted
                && accepted.request() != null
                && accepted.request().source() != null
                && accepted.request().source().table() != null) {
            Source s = accepted.request().source();
            if (s.kind() == Source.Kind.BACKUP) {
                put(id, new Hold(s.account(), s.region(), s.table(), s.backupId(), null, at));
            } else if (s.kind() == Source.Kind.POINT_IN_TIME) {
                // a second it could not tell ("latest" unresolved): the whole table, until the plan says
                put(
                        id,
                        new Hold(
                                s.account(),
                                s.region(),
                                s.table(),
                                null,
                                secondOf(accepted.pointInTime(), s.pointInTime()),
                                at));
            }
        } else if (event instanceof RestorePlanned planned && planned.source() != null) {
            var s = planned.source();
            if (s.backupId() == null || s.backupId().isEmpty()) {
                holds.remove(id); // a Snap restore reads AWS's backup, not the vault
            } else if (s.table() != null) {
                Hold before = holds.get(id);
                put(
                        id,
                        new Hold(
                                s.account(),
                                s.region(),
                                s.table(),
                                s.backupId(),
                                null,
                                before == null ? at : before.since()));
            }
        } else if (event instanceof RestoreCompleted
                || event instanceof RestoreFailed
                || event instanceof RestoreCancelled
                || event instanceof RestoreRejected) {
            holds.remove(id);
        }
    }

    private static Instant secondOf(Instant resolved, String asked) {
        if (resolved != null) {
            return resolved;
        }
        try {
            return Instant.parse(asked);
        } catch (RuntimeException e) {
            return Instant.MAX;
        }
    }

    private void put(String id, Hold hold) {
        holds.put(id, hold);
        if (holds.size() > maxHolds) {
            Instant now = Instant.now();
            holds.values().removeIf(h -> h.since().isBefore(now.minus(maxAge)));
            if (holds.size() > maxHolds) {
                // the oldest goes, and since nobody knows what it read any more, nothing is freed until it is stale
                var oldest = holds.entrySet().iterator().next();
                holds.remove(oldest.getKey());
                holdAllUntil = max(holdAllUntil, oldest.getValue().since().plus(maxAge));
            }
        }
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /** The backups of the table that restores in progress hold at {@code now}. */
    public synchronized Held of(String account, String region, String table, Instant now) {
        if (now.isBefore(holdAllUntil)) {
            return backup -> true;
        }
        Instant oldest = now.minus(maxAge);
        var relevant = holds.values().stream()
                .filter(h -> h.covers(account, region, table) && !h.since().isBefore(oldest))
                .toList();
        return relevant.isEmpty() ? Held.NOTHING : backup -> relevant.stream().anyMatch(h -> h.holds(backup));
    }

    /** Restores in progress known to the fold. */
    public synchronized int size() {
        return holds.size();
    }

    @Override
    public String toString() {
        return "RestoreHolds[" + size() + " restores in progress]";
    }
}
