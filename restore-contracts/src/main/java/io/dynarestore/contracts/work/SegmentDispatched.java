package io.dynarestore.contracts.work;

import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.request.Scope;
import java.time.Instant;
import java.util.List;

/**
 * Segment {@code segment} of {@code segmentCount}: write every item of one data file into a
 * table. Kafka carries the descriptor only; the items stay in S3.
 */
public record SegmentDispatched(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        int segment,
        int segmentCount,
        Role role,
        DataFile source,
        WriteTarget target,
        DataFile skipKeys,
        boolean applyDeletes,
        Scope.Records filter,
        boolean readBeforeWrite,
        Boolean dryRun,
        Journal journal,
        Boolean conditional)
        implements SegmentWork {

    /** A segment of a full backup, written as it is. */
    public static SegmentDispatched of(
            String restoreId, int segment, int segmentCount, DataFile source, WriteTarget target) {
        return of(restoreId, segment, segmentCount, Role.BASE, source, target, null, false, null, false);
    }

    /**
     * @param skipKeys     for a BASE segment, the keys a later change supersedes (not written)
     * @param applyDeletes for a DELTA segment, whether keys without a final image are deleted
     *                     from the destination (not needed for a new or empty table)
     * @param filter       for a record restore, the records to write (evaluated on each image)
     * @param readBeforeWrite whether the destination may hold the keys already: the writer reads
     *                     each batch first, to count overwrites and to skip items already equal
     */
    public static SegmentDispatched of(
            String restoreId,
            int segment,
            int segmentCount,
            Role role,
            DataFile source,
            WriteTarget target,
            DataFile skipKeys,
            boolean applyDeletes,
            Scope.Records filter,
            boolean readBeforeWrite) {
        return new SegmentDispatched(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                segment,
                segmentCount,
                role,
                source,
                target,
                skipKeys,
                applyDeletes,
                filter,
                readBeforeWrite,
                null,
                null,
                null);
    }

    /** This work as a dry run: the writer reads the destination and reports what it would do, writing nothing. */
    public SegmentDispatched asDryRun() {
        return copy(true, true, null, conditional);
    }

    /** This work with an undo journal: the prior image of every key is saved there before it is changed. */
    public SegmentDispatched journaled(Journal journal) {
        return copy(readBeforeWrite, dryRun, journal, conditional);
    }

    /**
     * This work as a strict undo's: each DELTA line's {@code OldImage} is the image the destination
     * must still hold (absent: the key must be absent), and a line whose key holds anything else is
     * a conflict, left as it is and reported, never overwritten. Implies reading before writing.
     */
    public SegmentDispatched withConditions() {
        return copy(true, dryRun, journal, true);
    }

    /** This work with how it reads, runs, journals and conditions its writes replaced. */
    private SegmentDispatched copy(boolean readBeforeWrite, Boolean dryRun, Journal journal, Boolean conditional) {
        return new SegmentDispatched(
                eventId,
                restoreId,
                schemaVersion,
                occurredAt,
                segment,
                segmentCount,
                role,
                source,
                target,
                skipKeys,
                applyDeletes,
                filter,
                readBeforeWrite,
                dryRun,
                journal,
                conditional);
    }

    /** Whether each write is conditional on the destination still holding the line's {@code OldImage}. */
    public boolean strict() {
        return Boolean.TRUE.equals(conditional);
    }

    /** Whether this is a dry run. */
    public boolean dry() {
        return Boolean.TRUE.equals(dryRun);
    }

    /**
     * Where the undo journal of the restore goes: objects under {@code prefix} in {@code bucket},
     * one per batch that changes the destination, holding each key's image from before the batch.
     */
    public record Journal(String bucket, String prefix) {}

    /**
     * BASE: a data file of the base backup ({@code Item} lines). DELTA: final images and deletes
     * of the keys changed between the backup and the point in time ({@code Keys} and
     * {@code NewImage} lines, as in incremental exports).
     */
    public enum Role {
        BASE,
        DELTA
    }

    /**
     * A file in S3: a gzip data file of DynamoDB JSON lines (format {@code DYNAMODB_JSON}) or of ION
     * structs (format {@code ION}, a native export's {@code *.ion.gz}) with
     * its item count and the base64 MD5 of the object that its manifest states, or a sorted list
     * of key hashes (format {@code KEY_HASHES}, 16 bytes each).
     */
    public record DataFile(String bucket, String key, long itemCount, String md5Checksum, String format) {}

    /**
     * The destination table, the names of its key attributes (partition key first), their types
     * ({@code S}, {@code N} or {@code B}, in the same order), and the sort key of each of its LSIs
     * (an item that has one is written to that index too, at the same cost again).
     */
    public record WriteTarget(
            String account,
            String region,
            String tableName,
            List<String> keyAttributes,
            List<String> keyTypes,
            List<String> lsiSortKeys) {

        public WriteTarget(
                String account, String region, String tableName, List<String> keyAttributes, List<String> keyTypes) {
            this(account, region, tableName, keyAttributes, keyTypes, null);
        }

        /** The LSI sort keys, empty when there are none. */
        public List<String> lsiSortKeysOrEmpty() {
            return lsiSortKeys == null ? List.of() : lsiSortKeys;
        }
    }
}
