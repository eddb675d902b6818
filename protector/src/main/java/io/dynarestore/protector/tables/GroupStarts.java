package io.dynarestore.protector.tables;

import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.protector.changelog.ShardGroups;
import java.time.Duration;
import java.time.Instant;

/**
 * What the owner of a table whose capture is split into shard groups knows of the other groups'
 * chains (ADR 0025): where each last began, read from the vault at most every 5 s. A backup waits
 * until every group has begun on the table's current stream (one before would restore no second
 * after it), and a group that began again (a takeover that found no checkpoint, a gap) after the
 * table's latest backup asks for a new one, from which its chain goes on.
 */
final class GroupStarts {

    private static final Duration REREAD = Duration.ofSeconds(5);

    private final TableServices services;
    private final Runnable backupNow;
    private Instant readAt = Instant.MIN;
    private boolean started;
    private Instant latest;

    GroupStarts(TableServices services, Runnable backupNow) {
        this.services = services;
        this.backupNow = backupNow;
    }

    /** Whether every group but 0 has begun on {@code streamArn}, and at or before {@code now}. */
    synchronized boolean allStarted(ProtectionSet p, String streamArn, Instant now) {
        if (now.isBefore(readAt.plus(REREAD))) {
            return started && !now.isBefore(latest);
        }
        readAt = now;
        var starts = ShardGroups.starts(
                services.aws().s3(), services.layout(), p.account(), p.region(), p.table(), p.shardGroups());
        Instant last = null;
        for (int i = 1; i < starts.length; i++) {
            if (starts[i] == null || !starts[i].streamArn().equals(streamArn)) {
                started = false;
                return false;
            }
            last = last == null || starts[i].from().isAfter(last) ? starts[i].from() : last;
        }
        if (!last.equals(latest)) {
            latest = last;
            Instant from = last;
            var catalog = new VaultCatalog(services.aws().s3(), services.layout());
            boolean covered = catalog.listBackups(p.account(), p.region(), p.table()).stream()
                    .anyMatch(b -> !b.takenAt().isBefore(from) && !b.expiredAt(now));
            if (!covered) {
                backupNow.run();
            }
        }
        started = true;
        return !now.isBefore(latest);
    }
}
