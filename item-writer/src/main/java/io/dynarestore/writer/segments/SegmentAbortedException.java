package io.dynarestore.writer.segments;

import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** The segment was given up (partition revoked, shutdown) before it was complete. */
class SegmentAbortedException extends RuntimeException {

    /** The writes of the batch under way that DynamoDB had not taken when it stopped ({@code null}: no batch). */
    final List<WriteRequest> unwritten;

    SegmentAbortedException() {
        this(null);
    }

    SegmentAbortedException(List<WriteRequest> unwritten) {
        super("segment aborted");
        this.unwritten = unwritten;
    }
}
