package io.dynarestore.writer.segments;

import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.Diff;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.ItemDigest;
import io.dynarestore.core.pitr.KeyHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The running counts of one segment: what became of its lines, the bytes and write units, the two
 * checksums of the verification (of what the lines ask for, and of what was applied or found
 * applied), a uniform sample of applied keys to read back, a dry run's samples, and a strict
 * undo's conflicts. Starts from a checkpoint's counts when the segment resumes.
 */
final class WriteTally {

    /** Keys kept per segment to read back at the end of the restore. */
    static final int READ_BACK = 2;

    long written;
    long overwritten;
    long unchanged;
    long deleted;
    long skipped;
    long bytes;
    long wcu;
    long batchUnits;
    long sourceChecksum;
    long appliedChecksum;
    /** Lines of a strict undo left as they are because their key no longer held the expected image. */
    long conflicts;

    private long resolved;
    String writer;
    /** The data file's line the current batch ends at. */
    long line;
    /**
     * Keys an earlier owner of the segment changed after the checkpoint this one resumed from,
     * with whether each existed before: found at their target, they count as written by this
     * segment, not as unchanged ({@code null}: none known).
     */
    Map<KeyHash, Boolean> taken;

    List<String> keyNames;
    private final List<SegmentCompleted.KeyImage> readBack = new ArrayList<>(READ_BACK);
    private final List<Diff.Sample> samples = new ArrayList<>();
    private final List<RestorePlanned.Conflict> conflictSamples = new ArrayList<>();
    /** Seeded by restore and segment; SplittableRandom mixes the seed, so neighbouring segments sample apart. */
    private final SplittableRandom sampler;

    private WriteTally(SegmentDispatched work) {
        sampler = new SplittableRandom(work.restoreId().hashCode() * 31L + work.segment());
    }

    static WriteTally of(Checkpoint c, SegmentDispatched work) {
        var t = new WriteTally(work);
        if (c != null) {
            t.written = c.written();
            t.overwritten = c.overwritten();
            t.unchanged = c.unchanged();
            t.deleted = c.deleted();
            t.skipped = c.skipped();
            t.bytes = c.bytes();
            t.wcu = c.wcu();
            t.sourceChecksum = c.sourceChecksum() == null ? 0 : c.sourceChecksum();
            t.appliedChecksum = c.appliedChecksum() == null ? 0 : c.appliedChecksum();
            t.conflicts = c.conflicts() == null ? 0 : c.conflicts();
        }
        return t;
    }

    SegmentCompleted.Counts counts() {
        return new SegmentCompleted.Counts(written, overwritten, unchanged, deleted, skipped);
    }

    Checkpoint checkpoint(SegmentDispatched work, long lines) {
        return new Checkpoint(
                work.restoreId(),
                work.segment(),
                lines,
                written,
                overwritten,
                unchanged,
                deleted,
                skipped,
                bytes,
                wcu,
                sourceChecksum,
                appliedChecksum,
                conflicts);
    }

    /** Whether an earlier owner of the segment changed this key after the checkpoint ({@code null}: not known). */
    Boolean taken(WriteOp op) {
        return taken == null ? null : taken.get(KeyHash.of(op.keys(), keyNames));
    }

    /**
     * Adds an applied op to the checksum, and keeps a uniform sample of the applied keys
     * (reservoir sampling, seeded by the segment); only a kept key is encoded.
     */
    void applied(WriteOp op) {
        appliedChecksum += op.digest();
        resolved++;
        int slot = readBack.size() < READ_BACK
                ? readBack.size()
                : (int) Math.min(READ_BACK, (long) (sampler.nextDouble() * resolved));
        if (slot < READ_BACK) {
            // a put's digest is its image's; a delete leaves the key absent
            var sample = new SegmentCompleted.KeyImage(
                    DynamoJson.toJson(op.keys()), op.delete() ? null : ItemDigest.hex(op.digest()));
            if (slot == readBack.size()) {
                readBack.add(sample);
            } else {
                readBack.set(slot, sample);
            }
        }
    }

    /**
     * Counts a strict undo's line whose key holds {@code found} instead of the image expected: it
     * is left as it is, so it counts as skipped, and the restore no longer asks for its image.
     */
    void conflicted(WriteOp op, Map<String, AttributeValue> found) {
        conflicts++;
        skipped++;
        sourceChecksum -= op.digest();
        if (conflictSamples.size() < RestorePlanned.Conflicts.MAX_SAMPLES) {
            conflictSamples.add(new RestorePlanned.Conflict(
                    DynamoJson.toJson(op.keys()),
                    op.image() == null ? null : DynamoJson.toJson(op.image()),
                    found == null ? null : DynamoJson.toJson(found)));
        }
    }

    /** The conflicts of a strict undo's segment, or {@code null} when it found none. */
    RestorePlanned.Conflicts conflicts() {
        return conflicts == 0
                ? null
                : new RestorePlanned.Conflicts(conflicts, Source.Undo.LEAVE, List.copyOf(conflictSamples));
    }

    /** Keeps a dry run's sample of {@code change}, at most {@link Diff#SAMPLES_PER_KIND} of each kind. */
    void sample(Diff.Change change, Map<String, AttributeValue> keys, List<String> changed) {
        if (samples.stream().filter(x -> x.change() == change).count() < Diff.SAMPLES_PER_KIND) {
            samples.add(new Diff.Sample(change, DynamoJson.toJson(keys), changed));
        }
    }

    /** What a dry run found: the counts as what it would do, with the samples. */
    Diff diff() {
        return new Diff(written - overwritten, overwritten, unchanged, deleted, skipped, List.copyOf(samples));
    }

    /** The segment's check for the verification, once all {@code lines} were read. */
    SegmentCompleted.Check check(long lines, long manifestLines) {
        return new SegmentCompleted.Check(
                lines,
                manifestLines,
                ItemDigest.hex(sourceChecksum),
                ItemDigest.hex(appliedChecksum),
                List.copyOf(readBack));
    }
}
