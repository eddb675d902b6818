package io.dynarestore.api.history;

import static io.dynarestore.core.pitr.PitrCoverage.micros;

import io.dynarestore.core.codec.ItemEquality;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Every version of one item in [from, to], oldest first: the base is the latest backup taken at or
 * before {@code from}, then each write the change log holds of the key; where the log has a gap, the
 * backup that ends it says whether the item changed in it (a version known only to lie in the gap).
 * Exports are read in the order of their start, and reading stops once the page's versions cannot be
 * preceded by a write of an export not yet read; at most {@code limit + 1} versions are held.
 */
final class ItemHistory {

    /** What a version did to the item; {@code WRITTEN} when what was there before is not known. */
    enum Kind {
        CREATED,
        OVERWRITTEN,
        DELETED,
        WRITTEN
    }

    /** Where a version was seen: a write in the change log, or a backup at the end of a gap in it. */
    enum Origin {
        CHANGE_LOG,
        BACKUP
    }

    /**
     * @param micros   the write's time; for a backup's version, the backup's time (the write was before it)
     * @param backupId the backup that showed it, for {@link Origin#BACKUP}
     * @param image    the item after it, {@code null} for a delete
     * @param changed  the attributes added, removed or changed since the version before, by name
     */
    record Version(
            long micros,
            Kind kind,
            Origin origin,
            String backupId,
            Map<String, AttributeValue> image,
            List<String> changed) {}

    /**
     * @param before      the item just before {@code from} ({@code null}: absent or unknown)
     * @param beforeKnown whether {@code before} is known (false: no backup before {@code from})
     * @param next        the time of the version after the page's last (where the next page starts),
     *                    {@code null} at the end
     */
    record Page(Map<String, AttributeValue> before, boolean beforeKnown, List<Version> versions, Long next) {}

    private final HistoryVault vault;

    ItemHistory(HistoryVault vault) {
        this.vault = vault;
    }

    /** The first {@code limit} versions of {@code key} written in [{@code fromMicros}, {@code toMicros}]. */
    Page read(Map<String, AttributeValue> key, long fromMicros, long toMicros, int limit) {
        var backups = new ArrayList<>(vault.backups());
        backups.sort(Comparator.comparing(BackupSummary::takenAt));
        BackupSummary base = null;
        for (BackupSummary b : backups) {
            if (micros(b.takenAt()) <= fromMicros) {
                base = b;
            }
        }
        long baseMicros = base == null ? Long.MIN_VALUE : micros(base.takenAt());
        var exports = vault.exports().stream()
                .filter(e -> micros(e.to()) > baseMicros && micros(e.from()) < toMicros)
                .sorted(Comparator.comparing(ExportMetadata::from))
                .toList();
        var replay = new Replay(key, base == null ? null : vault.imageIn(base, key), base != null);
        var checkpoints = checkpoints(backups, exports, baseMicros, toMicros);
        var pending = new TreeMap<Long, Change>();
        ExportLine[] latestBefore = {null};
        var versions = new ArrayList<Version>();
        Map<String, AttributeValue> before = null;
        boolean beforeKnown = false;
        boolean settled = false;
        int ci = 0;
        for (int ei = 0; ; ei++) {
            long horizon = ei < exports.size() ? micros(exports.get(ei).from()) : Long.MAX_VALUE;
            if (!settled && horizon >= fromMicros) {
                // every write before from has been read: the item as it was just before from
                ci = settle(replay, latestBefore[0], checkpoints, fromMicros);
                before = replay.image;
                beforeKnown = replay.known;
                settled = true;
            }
            if (settled) {
                ci = emit(replay, pending, checkpoints, ci, horizon, versions, limit);
                if (versions.size() > limit) {
                    break;
                }
            }
            if (ei == exports.size()) {
                break;
            }
            boolean compacted = exports.get(ei).compacted();
            vault.changesIn(exports.get(ei), key, line -> {
                long ts = line.writeTimestampMicros();
                if (ts <= baseMicros || ts > toMicros) {
                    return;
                }
                if (ts < fromMicros) {
                    if (latestBefore[0] == null || ts > latestBefore[0].writeTimestampMicros()) {
                        latestBefore[0] = line;
                    }
                    return;
                }
                pending.putIfAbsent(ts, new Change(line, compacted)); // the same write in two exports is one version
                while (versions.size() + pending.size() > limit + 1) {
                    pending.pollLastEntry(); // beyond this page
                }
            });
        }
        Long next = versions.size() > limit ? versions.get(limit).micros() : null;
        return new Page(before, beforeKnown, List.copyOf(versions.subList(0, Math.min(limit, versions.size()))), next);
    }

    /** Applies the last known state before {@code fromMicros}: the later of the last write and the last gap's backup. */
    private int settle(Replay replay, ExportLine latestBefore, List<BackupSummary> checkpoints, long fromMicros) {
        int ci = 0;
        BackupSummary lastCheckpoint = null;
        while (ci < checkpoints.size() && micros(checkpoints.get(ci).takenAt()) < fromMicros) {
            lastCheckpoint = checkpoints.get(ci++);
        }
        long writeAt = latestBefore == null ? Long.MIN_VALUE : latestBefore.writeTimestampMicros();
        if (lastCheckpoint != null && micros(lastCheckpoint.takenAt()) > writeAt) {
            replay.image = vault.imageIn(lastCheckpoint, replay.key);
            replay.known = true;
        } else if (latestBefore != null) {
            replay.image = latestBefore.newImage();
            replay.known = true;
        }
        return ci;
    }

    /** Applies, in time order, the writes and gap backups up to {@code horizon}, until the page has one version too many. */
    private int emit(
            Replay replay,
            TreeMap<Long, Change> pending,
            List<BackupSummary> checkpoints,
            int ci,
            long horizon,
            List<Version> versions,
            int limit) {
        while (versions.size() <= limit) {
            Long write = pending.isEmpty() ? null : pending.firstKey();
            long gapEnd = ci < checkpoints.size() ? micros(checkpoints.get(ci).takenAt()) : Long.MAX_VALUE;
            Version v;
            if (write != null && write <= gapEnd && write <= horizon) {
                v = replay.write(pending.pollFirstEntry().getValue());
            } else if (ci < checkpoints.size() && gapEnd <= horizon) {
                BackupSummary backup = checkpoints.get(ci++);
                v = replay.seen(backup, vault.imageIn(backup, replay.key));
            } else {
                return ci;
            }
            if (v != null) {
                versions.add(v);
            }
        }
        return ci;
    }

    /**
     * The backups after the base that end a gap in the change log: those whose time the exports do not
     * join, without a gap, to the known instant before them (the base, or the backup before).
     */
    static List<BackupSummary> checkpoints(
            List<BackupSummary> backups, List<ExportMetadata> exports, long baseMicros, long toMicros) {
        var covered = new ArrayList<long[]>();
        exports.stream()
                .map(e -> new long[] {micros(e.from()), micros(e.to())})
                .sorted(Comparator.comparingLong(r -> r[0]))
                .forEach(r -> {
                    long[] tail = covered.isEmpty() ? null : covered.get(covered.size() - 1);
                    if (tail != null && r[0] <= tail[1]) {
                        tail[1] = Math.max(tail[1], r[1]);
                    } else {
                        covered.add(r);
                    }
                });
        var result = new ArrayList<BackupSummary>();
        long anchor = baseMicros;
        for (BackupSummary b : backups) {
            long t = micros(b.takenAt());
            if (t <= baseMicros || t > toMicros) {
                continue;
            }
            long from = anchor;
            if (from == Long.MIN_VALUE || covered.stream().noneMatch(r -> r[0] <= from && t <= r[1])) {
                result.add(b);
            }
            anchor = t;
        }
        return result;
    }

    /** A write read from an export, and whether the export holds only each key's last write (a native one). */
    private record Change(ExportLine line, boolean compacted) {}

    /** The item as the replay knows it so far. */
    private static final class Replay {
        final Map<String, AttributeValue> key;
        Map<String, AttributeValue> image;
        boolean known;

        Replay(Map<String, AttributeValue> key, Map<String, AttributeValue> image, boolean known) {
            this.key = key;
            this.image = image;
            this.known = known;
        }

        /** A write of the change log; {@code null} for a delete of an item that was not there. */
        Version write(Change change) {
            ExportLine line = change.line();
            // without a base, the write's own old image says what was there: a log of every write holds
            // it whenever the item was there; a compacted (native) one may not hold old images at all
            Map<String, AttributeValue> previous = known ? image : line.oldImage();
            boolean previousKnown = known || line.oldImage() != null || !change.compacted();
            return next(line.writeTimestampMicros(), Origin.CHANGE_LOG, null, previous, previousKnown, line.newImage());
        }

        /** The item a gap's closing backup holds; {@code null} when it is what the replay already knows. */
        Version seen(BackupSummary backup, Map<String, AttributeValue> item) {
            if (known ? ItemEquality.same(image, item) : item == null) {
                image = item; // nothing known before, and the item is not there: no version, but now known
                known = true;
                return null;
            }
            return next(micros(backup.takenAt()), Origin.BACKUP, backup.backupId(), image, known, item);
        }

        private Version next(
                long micros,
                Origin origin,
                String backupId,
                Map<String, AttributeValue> previous,
                boolean previousKnown,
                Map<String, AttributeValue> after) {
            image = after;
            known = true;
            if (previous == null && after == null && previousKnown) {
                return null;
            }
            Kind kind = after == null
                    ? Kind.DELETED
                    : !previousKnown ? Kind.WRITTEN : previous == null ? Kind.CREATED : Kind.OVERWRITTEN;
            return new Version(micros, kind, origin, backupId, after, ItemEquality.changedAttributes(previous, after));
        }
    }
}
