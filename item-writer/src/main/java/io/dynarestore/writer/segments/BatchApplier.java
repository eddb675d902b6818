package io.dynarestore.writer.segments;

import io.dynarestore.contracts.work.SegmentDispatched;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Applies one batch of a segment's writes to its destination and counts the outcome in the
 * segment's tally: every op of the batch is either applied (and added to the applied checksum)
 * or counted as skipped or unchanged, so that the verification can account for every line.
 */
interface BatchApplier {

    /**
     * @param batch   the writes, in line order; the caller clears and refills the list after the call,
     *                so an applier reads it during the call and keeps no reference to it
     * @param current the destination's items at the batch's keys, read before writing ({@code Map.of()}
     *                when the destination cannot hold them)
     */
    void apply(
            BatchWriter.Destination destination,
            SegmentDispatched work,
            List<WriteOp> batch,
            Map<List<AttributeValue>, Map<String, AttributeValue>> current,
            WriteTally tally);
}
