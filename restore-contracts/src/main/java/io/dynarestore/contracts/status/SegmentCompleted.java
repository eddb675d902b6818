package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.List;

/**
 * Every item of a segment is in the destination. A segment may complete more than once (a
 * writer that crashed before committing its offset is replaced and writes it again); readers
 * count a segment once.
 */
public record SegmentCompleted(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        int segment,
        long itemsWritten,
        long itemsOverwritten,
        long itemsUnchanged,
        long itemsDeleted,
        long itemsSkipped,
        long bytesWritten,
        long wcuConsumed,
        String writer,
        long durationMs,
        Long resumedFromLine,
        Check check,
        Diff diff,
        RestorePlanned.Conflicts conflicts)
        implements RestoreEvent {

    /** A segment of puts only. */
    public static SegmentCompleted of(
            String restoreId, int segment, long items, long bytes, long wcu, String writer, long durationMs) {
        return of(restoreId, segment, new Counts(items, 0, 0, 0, 0), bytes, wcu, writer, durationMs);
    }

    public static SegmentCompleted of(
            String restoreId, int segment, Counts counts, long bytes, long wcu, String writer, long durationMs) {
        return new SegmentCompleted(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                segment,
                counts.written(),
                counts.overwritten(),
                counts.unchanged(),
                counts.deleted(),
                counts.skipped(),
                bytes,
                wcu,
                writer,
                durationMs,
                null,
                null,
                null,
                null);
    }

    /** This completion of a segment that was resumed after {@code line} lines written before. */
    public SegmentCompleted resumedFrom(Long line) {
        return copy(line, check, diff, conflicts);
    }

    /** This completion with the segment's own check, for the restore's verification. */
    public SegmentCompleted withCheck(Check check) {
        return copy(resumedFromLine, check, diff, conflicts);
    }

    /** This completion of a dry-run segment with what it found. */
    public SegmentCompleted withDiff(Diff diff) {
        return copy(resumedFromLine, check, diff, conflicts);
    }

    /** This completion with the conflicts a strict undo's segment left as they are. */
    public SegmentCompleted withConflicts(RestorePlanned.Conflicts conflicts) {
        return copy(resumedFromLine, check, diff, conflicts);
    }

    /** This completion with the figures that come after the counts replaced. */
    private SegmentCompleted copy(Long resumedFromLine, Check check, Diff diff, RestorePlanned.Conflicts conflicts) {
        return new SegmentCompleted(
                eventId,
                restoreId,
                schemaVersion,
                occurredAt,
                segment,
                itemsWritten,
                itemsOverwritten,
                itemsUnchanged,
                itemsDeleted,
                itemsSkipped,
                bytesWritten,
                wcuConsumed,
                writer,
                durationMs,
                resumedFromLine,
                check,
                diff,
                conflicts);
    }

    /**
     * What the writer saw of a segment, for the restore's verification: the lines it read and
     * the item count its manifest states; the checksum of the images (and deletes) the lines ask
     * for and of those applied to the destination (written, found equal, or deleted), each the sum
     * of 64-bit item digests, in hex; and a few applied keys with the digest of their image, or
     * none for a key that must be absent, to read back.
     */
    public record Check(
            long lines, long expectedLines, String sourceChecksum, String appliedChecksum, List<KeyImage> readBack) {}

    /** A key as DynamoDB JSON, and the digest of the image it must hold ({@code null}: must be absent). */
    public record KeyImage(String key, String digest) {}

    /**
     * What became of a segment's lines.
     *
     * @param written     items put into the destination
     * @param overwritten of those, items that replaced a different item of the same key (irreversible)
     * @param unchanged   items not written because the destination already held them as they are
     * @param deleted     items deleted from the destination
     * @param skipped     lines not written: superseded by a later change, not matching the filter, or
     *                    deletes of items the destination cannot hold
     */
    public record Counts(long written, long overwritten, long unchanged, long deleted, long skipped) {

        /** The lines these counts account for: each line is written, found equal, deleted or skipped. */
        public long accounted() {
            return written + unchanged + deleted + skipped;
        }
    }
}
