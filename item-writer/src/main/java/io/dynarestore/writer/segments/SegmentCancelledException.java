package io.dynarestore.writer.segments;

/** The segment's restore was cancelled; {@code items} and {@code bytes} of it were written and stay. */
class SegmentCancelledException extends RuntimeException {

    final long items;
    final long bytes;

    SegmentCancelledException(long items, long bytes) {
        super("restore cancelled");
        this.items = items;
        this.bytes = bytes;
    }
}
