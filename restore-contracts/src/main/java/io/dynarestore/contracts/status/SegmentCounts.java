package io.dynarestore.contracts.status;

/**
 * What a restore's view counts for one segment: what became of its lines and the bytes written. A
 * completed segment has every count; one still in flight or cancelled has only what its last
 * progress said (items written and bytes, the rest 0).
 */
public record SegmentCounts(SegmentCompleted.Counts lines, long bytesWritten) {

    /** The counts a completion reports. */
    static SegmentCounts of(SegmentCompleted e) {
        return new SegmentCounts(
                new SegmentCompleted.Counts(
                        e.itemsWritten(), e.itemsOverwritten(), e.itemsUnchanged(), e.itemsDeleted(), e.itemsSkipped()),
                e.bytesWritten());
    }

    /** The items written and bytes of a segment not completed. */
    static SegmentCounts written(long items, long bytes) {
        return new SegmentCounts(new SegmentCompleted.Counts(items, 0, 0, 0, 0), bytes);
    }
}
