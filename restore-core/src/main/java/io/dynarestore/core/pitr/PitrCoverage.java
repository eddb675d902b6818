package io.dynarestore.core.pitr;

import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Which seconds of a table's history can be restored, from its unexpired backups and its
 * incremental exports (ADR 0006).
 *
 * <p>Rules. The image at second {@code T} is the table after every write made before
 * {@code T + 1s}. It can be built from a backup taken at {@code T0 < T + 1s} when the writes in
 * [{@code T0}, {@code T + 1s}) are known exactly. From {@code T0}, an export covering
 * [{@code from}, {@code to}) that starts at or before an instant already known exactly makes
 * known: every instant up to {@code to} if it holds every write (the vault's own exports), or
 * only {@code to} if it is compacted to each key's last write (native exports).
 *
 * <p>Shard groups (ADR 0025). An export of one shard group holds the writes of that group's keys
 * only; the groups of one count partition the keys. Such an export grows what is known of its
 * group's keys, and an instant is known for the table when every group of one count knows it (an
 * export of every key counts for every group). A gap in one group is a gap of the table.
 */
public final class PitrCoverage {

    private static final long SECOND = 1_000_000L;

    private final List<BackupSummary> bases;
    private final List<ExportMetadata> exports;

    private PitrCoverage(List<BackupSummary> bases, List<ExportMetadata> exports) {
        this.bases = bases;
        this.exports = exports;
    }

    /** Coverage from the backups unexpired at {@code now} and all exports. */
    public static PitrCoverage of(List<BackupSummary> backups, List<ExportMetadata> exports, Instant now) {
        var bases = backups.stream()
                .filter(b -> !b.expiredAt(now))
                .sorted(Comparator.comparing(BackupSummary::takenAt))
                .toList();
        var sorted = exports.stream()
                .sorted(Comparator.comparing(ExportMetadata::from))
                .toList();
        return new PitrCoverage(bases, sorted);
    }

    /** The export that ends last, if any: the change log's end. */
    public Optional<ExportMetadata> lastExport() {
        return exports.stream().max(Comparator.comparing(ExportMetadata::to));
    }

    /** Restorable seconds, as inclusive [start, end] windows. */
    public record Window(Instant start, Instant end) {
        public boolean contains(Instant t) {
            return !t.isBefore(start) && !t.isAfter(end);
        }
    }

    /** The windows, the gaps between them, and the latest restorable second. */
    public record Availability(List<Window> windows, List<Window> gaps, Instant latestRestorable) {}

    /** What a restore to a second reads: the base backup and the exports that may hold writes after it. */
    public record Resolution(BackupSummary base, Instant pointInTime, List<ExportMetadata> exports) {}

    public Availability availability() {
        var windows = new ArrayList<long[]>();
        for (BackupSummary base : bases) {
            long t0 = micros(base.takenAt());
            for (long[] exact : exactSet(t0)) {
                long lo = Math.max(Math.max(exact[0], t0 + 1), consistent(base));
                long first = ceilSeconds(lo) - 1;
                long last = Math.floorDiv(exact[1], SECOND) - 1;
                if (first <= last) {
                    windows.add(new long[] {first, last});
                }
            }
        }
        windows.sort(Comparator.comparingLong(w -> w[0]));
        var merged = new ArrayList<long[]>();
        for (long[] w : windows) {
            long[] tail = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (tail != null && w[0] <= tail[1] + 1) {
                tail[1] = Math.max(tail[1], w[1]);
            } else {
                merged.add(new long[] {w[0], w[1]});
            }
        }
        var result = merged.stream()
                .map(w -> new Window(Instant.ofEpochSecond(w[0]), Instant.ofEpochSecond(w[1])))
                .toList();
        var gaps = new ArrayList<Window>();
        for (int i = 1; i < merged.size(); i++) {
            gaps.add(new Window(
                    Instant.ofEpochSecond(merged.get(i - 1)[1] + 1), Instant.ofEpochSecond(merged.get(i)[0] - 1)));
        }
        return new Availability(
                result,
                gaps,
                result.isEmpty() ? null : result.get(result.size() - 1).end());
    }

    /** How to restore to whole second {@code t}, if it is restorable: from the latest base that reaches it. */
    public Optional<Resolution> resolve(Instant t) {
        long target = micros(t) + SECOND;
        for (int i = bases.size() - 1; i >= 0; i--) {
            BackupSummary base = bases.get(i);
            long t0 = micros(base.takenAt());
            if (t0 >= target || consistent(base) > target) {
                continue;
            }
            if (contains(exactSet(t0), target)) {
                var used = exports.stream()
                        .filter(e -> micros(e.to()) > t0 && micros(e.from()) < target)
                        .toList();
                return Optional.of(new Resolution(base, t, used));
            }
        }
        return Optional.empty();
    }

    /**
     * What the change log holds of every write after second {@code t} (ADR 0031): the exports that
     * hold each of them, with the old image of each write, and the end E of that stretch. Only
     * exports of every write count (the vault's own, not compacted native ones, whose old images
     * are those of their start), and the stretch must join {@code t} without a gap. Empty when
     * {@code t} is not restorable or no export holds a write after it.
     */
    public Optional<ChangeLog> changeLogAfter(Instant t) {
        if (resolve(t).isEmpty()) {
            return Optional.empty();
        }
        long target = micros(t) + SECOND;
        long end = target;
        for (long[] s : knownFrom(target, e -> !e.compacted())) {
            if (s[0] <= target && target <= s[1]) {
                end = s[1];
            }
        }
        if (end == target) {
            return Optional.empty();
        }
        long known = end;
        var used = exports.stream()
                .filter(e -> !e.compacted() && micros(e.to()) > target && micros(e.from()) < known)
                .toList();
        return Optional.of(new ChangeLog(t, Instant.ofEpochSecond(0, known * 1_000), used));
    }

    /**
     * The writes after second {@code after} up to {@code end}, and the exports that hold them.
     *
     * @param after   the restored second
     * @param end     the last instant the log knows every write up to (writes after it are not in the log yet)
     * @param exports the exports to read, in the order of their start
     */
    public record ChangeLog(Instant after, Instant end, List<ExportMetadata> exports) {

        /** The changes these exports hold, written and not, as their manifests count them. */
        public long lines() {
            return exports.stream().mapToLong(ExportMetadata::itemCount).sum();
        }
    }

    /** A sentence naming the restorable seconds nearest to {@code t}, for a rejection. */
    public String nearest(Instant t) {
        var windows = availability().windows();
        if (windows.isEmpty()) {
            return "No second of this table is restorable: it needs an unexpired backup followed by incremental "
                    + "exports.";
        }
        Instant before = null;
        Instant after = null;
        for (Window w : windows) {
            if (w.end().isBefore(t)) {
                before = w.end();
            } else if (after == null && w.start().isAfter(t)) {
                after = w.start();
            }
        }
        var sb = new StringBuilder("The nearest restorable seconds are ");
        if (before != null) {
            sb.append(before).append(" (before)");
        }
        if (before != null && after != null) {
            sb.append(" and ");
        }
        if (after != null) {
            sb.append(after).append(" (after)");
        }
        return sb.append('.').toString();
    }

    /** The instants (microseconds) at which the state is known exactly, from a base taken at {@code t0}. */
    private List<long[]> exactSet(long t0) {
        return knownFrom(t0, e -> true);
    }

    /** The instants known from an instant {@code t0} whose state is known, through the exports {@code usable} takes. */
    private List<long[]> knownFrom(long t0, Predicate<ExportMetadata> usable) {
        var set = new ArrayList<long[]>();
        set.add(new long[] {t0, t0});
        var counts = new TreeSet<Integer>();
        exports.stream()
                .filter(e -> e.shardGroup() != null)
                .forEach(e -> counts.add(e.shardGroup().of()));
        boolean grew = true;
        while (grew) {
            grew = grow(set, t0, null, usable);
            for (int of : counts) {
                // what every group of this count knows, each from what the whole table is known at
                List<long[]> known = null;
                for (int index = 0; index < of; index++) {
                    var group = copy(set);
                    var shardGroup = new ExportMetadata.ShardGroup(index, of);
                    while (grow(group, t0, shardGroup, usable)) {
                        // to its closure
                    }
                    known = known == null ? group : intersection(known, group);
                }
                for (long[] s : known) {
                    grew |= add(set, s[0], s[1]);
                }
            }
        }
        return set;
    }

    /**
     * One pass over the exports of every key, and those of {@code group} when it is not null: grows
     * {@code set}, what is known of the keys they hold; returns whether it grew.
     */
    private boolean grow(List<long[]> set, long t0, ExportMetadata.ShardGroup group, Predicate<ExportMetadata> usable) {
        boolean grew = false;
        for (ExportMetadata e : exports) {
            if (!usable.test(e) || e.shardGroup() != null && !e.shardGroup().equals(group)) {
                continue;
            }
            long from = micros(e.from());
            long to = micros(e.to());
            if (to <= t0) {
                continue;
            }
            Long start = firstMember(set, from, to);
            if (start == null) {
                continue;
            }
            grew |= add(set, e.compacted() ? to : start, to);
        }
        return grew;
    }

    private static List<long[]> copy(List<long[]> set) {
        var copy = new ArrayList<long[]>(set.size());
        set.forEach(s -> copy.add(s.clone()));
        return copy;
    }

    /** The intersection of two sorted, disjoint sets of closed ranges. */
    private static List<long[]> intersection(List<long[]> a, List<long[]> b) {
        var result = new ArrayList<long[]>();
        int i = 0;
        int j = 0;
        while (i < a.size() && j < b.size()) {
            long lo = Math.max(a.get(i)[0], b.get(j)[0]);
            long hi = Math.min(a.get(i)[1], b.get(j)[1]);
            if (lo <= hi) {
                result.add(new long[] {lo, hi});
            }
            if (a.get(i)[1] < b.get(j)[1]) {
                i++;
            } else {
                j++;
            }
        }
        return result;
    }

    private static Long firstMember(List<long[]> set, long from, long to) {
        for (long[] s : set) {
            if (s[1] < from) {
                continue;
            }
            if (s[0] > to) {
                return null;
            }
            return Math.max(s[0], from);
        }
        return null;
    }

    /** Adds [a, b] to the sorted, disjoint set; returns whether the set grew. */
    private static boolean add(List<long[]> set, long a, long b) {
        for (long[] s : set) {
            if (s[0] <= a && b <= s[1]) {
                return false;
            }
        }
        set.add(new long[] {a, b});
        set.sort(Comparator.comparingLong(s -> s[0]));
        var merged = new ArrayList<long[]>();
        for (long[] s : set) {
            long[] tail = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (tail != null && s[0] <= tail[1]) {
                tail[1] = Math.max(tail[1], s[1]);
            } else {
                merged.add(new long[] {s[0], s[1]});
            }
        }
        set.clear();
        set.addAll(merged);
        return true;
    }

    private static boolean contains(List<long[]> set, long x) {
        return set.stream().anyMatch(s -> s[0] <= x && x <= s[1]);
    }

    /** From when a base is exact: its Scan's end, or its time. */
    private static long consistent(BackupSummary base) {
        return base.consistentAt() == null ? micros(base.takenAt()) : micros(base.consistentAt());
    }

    public static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), SECOND), t.getNano() / 1_000);
    }

    private static long ceilSeconds(long micros) {
        return Math.floorDiv(micros + SECOND - 1, SECOND);
    }
}
