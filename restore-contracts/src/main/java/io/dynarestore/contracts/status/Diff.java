package io.dynarestore.contracts.status;

import java.util.ArrayList;
import java.util.List;

/**
 * What a dry run found: for the keys the restore would touch, how many items it would create,
 * overwrite (with the attributes that differ), leave because they are equal already, and
 * delete, with the lines it would skip and a few samples of each kind. The counts are those the
 * real restore reports for the same table state ({@code written - overwritten}, {@code
 * overwritten}, {@code unchanged}, {@code deleted}, {@code skipped}).
 */
public record Diff(long create, long overwrite, long equal, long delete, long skipped, List<Sample> samples) {

    /** Samples kept per kind, in a segment and in a restore. */
    public static final int SAMPLES_PER_KIND = 5;

    public static Diff empty() {
        return new Diff(0, 0, 0, 0, 0, List.of());
    }

    /** The sum of two diffs, keeping at most {@link #SAMPLES_PER_KIND} samples of each kind. */
    public Diff plus(Diff other) {
        if (other == null) {
            return this;
        }
        var kept = new ArrayList<Sample>();
        for (List<Sample> from : List.of(samplesOrEmpty(), other.samplesOrEmpty())) {
            for (Sample s : from) {
                if (kept.stream().filter(k -> k.change() == s.change()).count() < SAMPLES_PER_KIND) {
                    kept.add(s);
                }
            }
        }
        return new Diff(
                create + other.create,
                overwrite + other.overwrite,
                equal + other.equal,
                delete + other.delete,
                skipped + other.skipped,
                List.copyOf(kept));
    }

    public List<Sample> samplesOrEmpty() {
        return samples == null ? List.of() : samples;
    }

    /**
     * One key of the diff: its key attributes as DynamoDB JSON, and for an overwrite the
     * attributes whose values differ (added, removed or changed), sorted by name.
     */
    public record Sample(Change change, String key, List<String> changedAttributes) {}

    /** What the restore would do to a key. */
    public enum Change {
        CREATE,
        OVERWRITE,
        EQUAL,
        DELETE
    }
}
