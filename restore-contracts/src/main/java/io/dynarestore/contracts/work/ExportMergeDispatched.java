package io.dynarestore.contracts.work;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.List;

/**
 * Merge the {@code parts} staged parts of a split export (under {@code staging}, each written by
 * an {@link ExportDispatched} with a split) into the one CSV object {@code s3://bucket/key}: the
 * header is the union of the parts' columns, the rows come in part order, at most {@code cap}.
 * Sent by the planner once every part has completed; ends with {@code ExportCompleted}.
 */
public record ExportMergeDispatched(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        String bucket,
        String key,
        String staging,
        int parts,
        List<String> keyAttributes,
        long cap)
        implements ExportWork {

    public static ExportMergeDispatched of(
            String restoreId,
            String bucket,
            String key,
            String staging,
            int parts,
            List<String> keyAttributes,
            long cap) {
        return new ExportMergeDispatched(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                bucket,
                key,
                staging,
                parts,
                keyAttributes,
                cap);
    }
}
