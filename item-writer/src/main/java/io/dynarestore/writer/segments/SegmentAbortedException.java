package io.dynarestore.writer.segments;

import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** The segment was given up (partition revoked, shutdown) before it was complete. */
class SegmentAbortedException extends RuntimeException {

    /** The writes of the batch under way that DynamoDB had not taken when it stopped ({@code null}: no batch). */
    final java.util.List<WriteRequest> unwritten;

    SegmentAbortedException() {
        this(null);
    }

    SegmentAbortedException(java.util.List<WriteRequest> unwritten) {
        super("segment aborted");
        this.unwritten = unwritten;
    }
}
