package io.dynarestore.core.pitr;

import io.dynarestore.core.vault.ExportLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The reverts of a backtrack or of an undo, from the change log alone (ADR 0031). The image at an
 * instant of a key written after it is the old image of its first write after it (no old image:
 * the key did not exist), so only the keys written since are read and reverted.
 *
 * <ul>
 *   <li>A backtrack to second T takes the window [T + 1 s, end of the log): every key written in it
 *       goes back to its image at T.
 *   <li>An undo of (T1, T2] takes the window [T1 + 1 s, T2 + 1 s): every key written in it goes back
 *       to its image at T1; a key written again after the window is a <em>conflict</em>, whose
 *       latest image is kept for the report (and for a strict revert's condition).
 * </ul>
 *
 * <p>A key absent at the window's start and at the log's end (created and deleted since) needs no
 * revert and is not handed on: deleting it could only remove a write made after the log's end,
 * which a backtrack leaves alone. Writes of one time keep the order they were read in, as in
 * {@link DeltaBuilder}. Lines spill
 * into buckets by key hash, so memory is bounded by the largest bucket.
 */
public final class BacktrackBuilder implements AutoCloseable {

    private final long fromMicros;
    private final long untilMicros;
    private final KeyBuckets buckets;
    private long accepted;

    /**
     * @param fromMicros  the window's start: writes from here on are reverted
     * @param untilMicros the window's end (exclusive); writes from here on are conflicts.
     *     {@code Long.MAX_VALUE} for a backtrack
     * @param bits        {@code 2^bits} buckets ({@link DeltaBuilder#bitsFor})
     */
    public BacktrackBuilder(List<String> keyAttributes, long fromMicros, long untilMicros, int bits) {
        if (untilMicros <= fromMicros) {
            throw new IllegalArgumentException("the window ends before it starts");
        }
        this.fromMicros = fromMicros;
        this.untilMicros = untilMicros;
        this.buckets = new KeyBuckets(keyAttributes, bits, "backtrack-");
    }

    /** Takes a change written at or after the window's start; returns whether it did. */
    public boolean add(ExportLine change) {
        if (KeyBuckets.writeTime(change) < fromMicros) {
            return false;
        }
        buckets.add(change);
        accepted++;
        return true;
    }

    /** Changes taken so far. */
    public long accepted() {
        return accepted;
    }

    /**
     * One key to revert.
     *
     * @param keys       the key
     * @param before     its image at the window's start; {@code null}: it did not exist (revert = delete)
     * @param latest     its latest image the log holds; {@code null}: deleted
     * @param conflict   whether it was written again after the window (never, for a backtrack)
     * @param firstWrite the time of its first write in the window, in microseconds
     */
    public record Revert(
            Map<String, AttributeValue> keys,
            Map<String, AttributeValue> before,
            Map<String, AttributeValue> latest,
            boolean conflict,
            long firstWrite) {

        /** Whether the revert deletes the key. */
        public boolean deletes() {
            return before == null;
        }

        /** The staged line: the image to write ({@code NewImage}) and the one expected in the table ({@code OldImage}). */
        public ExportLine line() {
            return ExportLine.change(keys, latest, before, firstWrite);
        }
    }

    /**
     * @param reverts   keys written in the window
     * @param deletes   of those, keys that did not exist at its start
     * @param conflicts of those, keys written again after it
     * @param maxBucket keys held in memory at once (the largest bucket)
     */
    public record Result(long reverts, long deletes, long conflicts, long maxBucket) {}

    /** What one key's lines told so far. */
    private static final class Seen {
        ExportLine first;
        ExportLine last;
        boolean after;
    }

    /** Hands every key written in the window to {@code sink}, in key-hash order. */
    public Result build(BiConsumer<KeyHash, Revert> sink) {
        long[] counts = new long[4];
        Map<KeyHash, Seen> seen = new HashMap<>();
        buckets.drain(
                (key, line) -> {
                    Seen s = seen.computeIfAbsent(key, k -> new Seen());
                    long ts = line.writeTimestampMicros();
                    if (ts < untilMicros) {
                        if (s.first == null || ts < s.first.writeTimestampMicros()) {
                            s.first = line;
                        }
                    } else {
                        s.after = true;
                    }
                    if (s.last == null || ts >= s.last.writeTimestampMicros()) {
                        s.last = line;
                    }
                },
                () -> {
                    counts[3] = Math.max(counts[3], seen.size());
                    var sorted = new ArrayList<>(seen.entrySet());
                    sorted.sort(Map.Entry.comparingByKey());
                    for (var e : sorted) {
                        Seen s = e.getValue();
                        if (s.first == null) {
                            continue; // written only after the window: not the undo's to touch
                        }
                        if (!s.after && s.first.oldImage() == null && s.last.newImage() == null) {
                            continue; // created and deleted since: absent then and now, nothing to revert
                        }
                        var revert = new Revert(
                                s.first.keys(),
                                s.first.oldImage(),
                                s.last.newImage(),
                                s.after,
                                s.first.writeTimestampMicros());
                        counts[0]++;
                        counts[1] += revert.deletes() ? 1 : 0;
                        counts[2] += revert.conflict() ? 1 : 0;
                        sink.accept(e.getKey(), revert);
                    }
                    seen.clear();
                });
        return new Result(counts[0], counts[1], counts[2], counts[3]);
    }

    @Override
    public void close() {
        buckets.close();
    }
}
