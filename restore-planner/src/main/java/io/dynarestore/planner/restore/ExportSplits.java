package io.dynarestore.planner.restore;

import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.fleet.PlanningFleet;
import java.util.List;

/**
 * Whether a CSV export is split over the exporter replicas (ADR 0041): only a backup of more than
 * {@code planner.exports.split-above} items in more than one data file, read by more than one
 * exporter replica, in one part per replica (at most {@code max-parts}, at most one per file). The
 * parts are contiguous ranges of the backup's files of about the same item count, so that the
 * rows of part {@code p} all come before part {@code p + 1}'s, as one pass would write them.
 */
final class ExportSplits implements AutoCloseable {

    private final PlanningFleet exporters;
    private final PlannerProperties.Exports settings;

    ExportSplits(PlanningFleet exporters, PlannerProperties.Exports settings) {
        this.exporters = exporters;
        this.settings = settings;
    }

    /** How many parts the export of {@code backup} has: 1 when it stays whole. */
    int parts(Backup backup) {
        return parts(backup.itemCount(), backup.files().size());
    }

    /** How many parts the export of a backup of {@code items} in {@code files} data files has. */
    int parts(long items, int files) {
        if (items <= settings.splitAbove() || files < 2) {
            return 1; // the group is not asked: most exports stay whole
        }
        int replicas = exporters.partitionPerReplica().size();
        return Math.max(1, Math.min(Math.min(replicas, settings.maxParts()), files));
    }

    /** The partition of {@code restore.exports} for each part: one a replica, or none (by key) where the group cannot tell. */
    List<Integer> partitions() {
        return exporters.partitionPerReplica();
    }

    /**
     * Where each part's files begin and end: part {@code p} reads files {@code [cuts[p], cuts[p + 1])},
     * none empty, each about the same number of items (by the manifest's counts).
     */
    static int[] cuts(List<ManifestFile> files, int parts) {
        if (parts < 1 || parts > files.size()) {
            throw new IllegalArgumentException(parts + " parts of " + files.size() + " data files");
        }
        long[] before = new long[files.size() + 1]; // items in files [0, i)
        for (int i = 0; i < files.size(); i++) {
            Long n = files.get(i).itemCount();
            before[i + 1] = before[i] + (n == null ? 1 : n);
        }
        int[] cuts = new int[parts + 1];
        cuts[parts] = files.size();
        for (int p = 1; p < parts; p++) {
            long target = before[files.size()] * p / parts;
            int at = cuts[p - 1] + 1;
            while (at < files.size() && before[at] < target) {
                at++;
            }
            // leave at least one file for each part after this one
            cuts[p] = Math.min(at, files.size() - (parts - p));
        }
        return cuts;
    }

    @Override
    public void close() throws Exception {
        if (exporters instanceof AutoCloseable c) {
            c.close();
        }
    }
}
