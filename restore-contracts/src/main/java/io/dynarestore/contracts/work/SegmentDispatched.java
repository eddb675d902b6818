package io.dynarestore.contracts.work;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;
import java.util.List;

/**
 * Segment {@code segment} of {@code segmentCount}: write every item of one data file into a
 * table. Kafka carries the descriptor only; the items stay in S3.
 */
public record SegmentDispatched(String eventId, String restoreId, Integer schemaVersion, Instant occurredAt,
                                int segment, int segmentCount, DataFile source, WriteTarget target)
        implements SegmentWork {

    public static SegmentDispatched of(String restoreId, int segment, int segmentCount, DataFile source,
                                       WriteTarget target) {
        return new SegmentDispatched(Envelope.newEventId(), restoreId, SCHEMA_VERSION, Envelope.now(), segment,
                segmentCount, source, target);
    }

    /**
     * A gzip data file of DynamoDB JSON lines in S3, with the item count and the base64 MD5 of
     * the object that its manifest states.
     */
    public record DataFile(String bucket, String key, long itemCount, String md5Checksum, String format) {
    }

    /** The destination table and the names of its key attributes (partition key first). */
    public record WriteTarget(String account, String region, String tableName, List<String> keyAttributes) {
    }
}
