package io.dynarestore.writer.segments;

/** The segment was given up (partition revoked, shutdown) before it was complete. */
class SegmentAbortedException extends RuntimeException {
    SegmentAbortedException() {
        super("segment aborted");
    }
}
