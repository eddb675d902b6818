package io.dynarestore.protector.changelog;

import io.dynarestore.core.aws.StreamRecordBodies;
import io.dynarestore.core.aws.StreamRecordBodies.Body;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.threads.DaemonThreads;
import io.dynarestore.core.vault.ChangeBodies;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The shards of one DynamoDB Stream as a capture reads them. A shard is read only once its parent
 * is read to its end (or the parent is no longer listed), so that every key's records come in the
 * order they were written. A position that the stream no longer holds is a {@link CaptureGap},
 * never a silent skip. Not thread-safe: one capture thread drives it (a shard's next page is read
 * ahead on another thread, and handed on by the capture thread in order).
 */
final class ShardCursors {

    /**
     * Where pages are read ahead: each shard being read has at most one GetRecords in flight there, so its
     * threads are bounded by the shards the replica reads.
     */
    private static final ExecutorService READ_AHEAD =
            Executors.newCachedThreadPool(DaemonThreads.named("stream-read-ahead"));

    /** Records per GetRecords call (DynamoDB Streams' maximum). */
    static final int LIMIT = 1_000;

    private final DynamoDbStreamsClient streams;
    private final String streamArn;
    private final Clock clock;
    private final Map<String, Cursor> cursors = new LinkedHashMap<>();
    private final Set<String> finished = new HashSet<>();
    /** The second of the last record of each shard read to its end here: its children's records are not older. */
    private final Map<String, Long> lastSecondOfFinished = new HashMap<>();
    /** Listed shards not read yet, their parent not read to its end, each with its parent: their records are unread. */
    private final Map<String, String> waiting = new HashMap<>();
    /** A shard was read to its end since the last listing: its children may not be known yet. */
    private boolean finishedSinceListing;

    private Instant refreshedAt = Instant.MIN;
    /** The table's key attributes, partition key first, as the stream describes them (none before the first listing). */
    private List<String> keyAttributes = List.of();

    /** The shard group read here, or null: every shard. */
    private final ShardGroups groups;

    ShardCursors(DynamoDbStreamsClient streams, String streamArn, Clock clock) {
        this(streams, streamArn, clock, null);
    }

    /** Reads only the shards of {@code groups}' group, when it is not null. */
    ShardCursors(DynamoDbStreamsClient streams, String streamArn, Clock clock, ShardGroups groups) {
        this.streams = streams;
        this.streamArn = streamArn;
        this.clock = clock;
        this.groups = groups;
    }

    /** The table's key attributes, partition key first; empty until the stream was first described. */
    List<String> keyAttributes() {
        return keyAttributes;
    }

    String streamArn() {
        return streamArn;
    }

    /** Starts at the stream's head: open shards from LATEST, closed ones count as read. */
    void startAtHead() {
        for (Shard shard : listShards()) {
            if (shard.sequenceNumberRange().endingSequenceNumber() != null) {
                finished.add(shard.shardId());
            } else {
                var c = new Cursor(shard.shardId(), shard.parentShardId(), ShardIteratorType.LATEST, null);
                cursors.put(c.shardId, c);
                c.open();
                c.closed = false;
            }
        }
        refreshedAt = clock.instant();
    }

    /** Resumes after a checkpoint: each shard after its last sequence number in the vault. */
    void resume(CaptureCheckpoint checkpoint) {
        finished.addAll(checkpoint.finished());
        var listed = listShards();
        var ids = new HashSet<String>();
        listed.forEach(s -> ids.add(s.shardId()));
        for (var e : checkpoint.shards().entrySet()) {
            if (!ids.contains(e.getKey()) && !finished.contains(e.getKey())) {
                throw new CaptureGap("shard " + e.getKey() + " of the stream was trimmed before it was read to its end "
                        + "(the capture was stopped for longer than the stream keeps records)");
            }
        }
        for (Shard shard : listed) {
            String seq = checkpoint.shards().get(shard.shardId());
            if (seq != null && !finished.contains(shard.shardId())) {
                var c = new Cursor(
                        shard.shardId(), shard.parentShardId(), ShardIteratorType.AFTER_SEQUENCE_NUMBER, seq);
                cursors.put(c.shardId, c);
                c.open();
            }
        }
        refresh(listed);
    }

    /** Lists the shards again and starts those whose parent is read (or gone). */
    void refresh() {
        refresh(listShards());
    }

    private void refresh(List<Shard> listed) {
        Instant at = clock.instant();
        var ids = new HashSet<String>();
        listed.forEach(s -> ids.add(s.shardId()));
        waiting.clear();
        for (Shard shard : listed) {
            String id = shard.shardId();
            boolean closed = shard.sequenceNumberRange().endingSequenceNumber() != null;
            if (cursors.containsKey(id)) {
                cursors.get(id).closed = closed;
                continue;
            }
            if (finished.contains(id)) {
                continue;
            }
            String parent = shard.parentShardId();
            if (parent == null || finished.contains(parent) || !ids.contains(parent)) {
                var c = new Cursor(id, parent, ShardIteratorType.TRIM_HORIZON, null);
                cursors.put(id, c);
                c.open();
                c.closed = closed;
                // a child's writes come after its parent's: what is older than the parent's last is all read
                c.lastReadSecond =
                        parent == null ? Long.MIN_VALUE : lastSecondOfFinished.getOrDefault(parent, Long.MIN_VALUE);
            } else {
                waiting.put(id, parent);
            }
        }
        finishedSinceListing = false;
        // forget finished shards the stream no longer lists, so that the set stays bounded
        finished.removeIf(id -> !ids.contains(id) && !cursors.containsKey(id));
        lastSecondOfFinished.keySet().retainAll(finished);
        refreshedAt = at;
    }

    /** Whether a shard was read to its end since the last listing (its children may wait to be started). */
    boolean endedSinceListing() {
        return finishedSinceListing;
    }

    Instant refreshedAt() {
        return refreshedAt;
    }

    /**
     * One GetRecords call on every shard being read; records go to {@code sink} in shard order.
     * Returns whether a shard's page came back full (it holds more right away).
     */
    boolean poll(RecordSink sink) {
        boolean more = false;
        for (Cursor c : new ArrayList<>(cursors.values())) {
            more |= c.read(sink);
            if (c.done) {
                cursors.remove(c.shardId);
                finished.add(c.shardId);
                finishedSinceListing = true;
                lastSecondOfFinished.put(c.shardId, c.lastReadSecond);
            }
        }
        return more;
    }

    /**
     * The latest instant before which every record of the stream has been read, or {@link Instant#EPOCH}
     * while that cannot be known (a shard ended since the last listing and its children are not known
     * yet, or a waiting shard has no ancestor being read). Per shard being read: the second of its last
     * record read, or, for an open shard, the time it was last seen at its head less {@code settleMillis},
     * whichever is later (a closed shard's children hold the writes after it); and no later than the
     * last listing less the settle. A shard waiting for its parent does not hold the bound back: its
     * writes all came after its parent's, so they are no older than the position of the ancestor being
     * read (which is why a backlog of closed shards still flushes as it is read).
     */
    Instant readUntil(long settleMillis) {
        if (finishedSinceListing || !waiting.keySet().stream().allMatch(this::hasAncestorBeingRead)) {
            return Instant.EPOCH;
        }
        long bound = refreshedAt.toEpochMilli() - settleMillis;
        for (Cursor c : cursors.values()) {
            long head = c.closed || c.caughtUpAt == null ? Long.MIN_VALUE : c.caughtUpAt.toEpochMilli() - settleMillis;
            long read = c.lastReadSecond == Long.MIN_VALUE ? Long.MIN_VALUE : c.lastReadSecond * 1000;
            bound = Math.min(bound, Math.max(head, read));
        }
        return Instant.ofEpochSecond(Math.floorDiv(bound, 1000));
    }

    private boolean hasAncestorBeingRead(String shard) {
        String at = shard;
        for (int hops = 0; hops <= waiting.size(); hops++) { // bounded: a parent chain never loops
            String parent = waiting.get(at);
            if (parent == null) {
                return false;
            }
            if (cursors.containsKey(parent)) {
                return true;
            }
            at = parent;
        }
        return false;
    }

    Set<String> finished() {
        return Set.copyOf(finished);
    }

    int shardsRead() {
        return cursors.size();
    }

    /** The stream's shards (of this group only, when there are groups). */
    private List<Shard> listShards() {
        Instant at = clock.instant();
        var shards = new ArrayList<Shard>();
        String after = null;
        try {
            do {
                String start = after;
                var d = streams.describeStream(b -> b.streamArn(streamArn).exclusiveStartShardId(start))
                        .streamDescription();
                shards.addAll(d.shards());
                if (d.hasKeySchema() && !d.keySchema().isEmpty()) {
                    keyAttributes = List.copyOf(KeySchema.attributeNames(d.keySchema()));
                }
                after = d.lastEvaluatedShardId();
            } while (after != null);
        } catch (ResourceNotFoundException e) {
            throw new CaptureGap("the stream " + streamArn + " is gone: " + e.getMessage());
        }
        return groups == null ? shards : groups.mine(streamArn, shards, at);
    }

    /** A page of GetRecords: its records, the next iterator, when it was asked for. */
    private record Page(List<Body> records, String next, Instant issued) {}

    /** Records the SDK read whole, as the bodies the interceptor would have cut from the answer. */
    private static List<Body> encoded(List<Record> records) {
        var bodies = new ArrayList<Body>(records.size());
        var encoder = new ChangeBodies(); // one per page: pages are read on two threads
        for (Record r : records) {
            var d = r.dynamodb();
            bodies.add(new Body(
                    d.sequenceNumber(),
                    d.approximateCreationDateTime().getEpochSecond(),
                    d.sizeBytes() == null ? 0 : d.sizeBytes(),
                    encoder.encode(
                            d.keys(),
                            d.hasOldImage() && !d.oldImage().isEmpty() ? d.oldImage() : null,
                            d.hasNewImage() && !d.newImage().isEmpty() ? d.newImage() : null)));
        }
        return bodies;
    }

    /** What a record read goes to. */
    interface RecordSink {
        void accept(String shardId, Body record);
    }

    private final class Cursor {
        final String shardId;
        final String parent;
        final ShardIteratorType start;
        final String startSequence;
        String iterator;
        String lastRead;
        long lastReadSecond = Long.MIN_VALUE;
        Instant caughtUpAt;
        boolean done;
        /** The listing shows the shard closed: it takes no more writes, its children do. */
        boolean closed;
        /** The next page, asked for while the last one's records were handed on; at most one per shard. */
        CompletableFuture<Page> ahead;

        Cursor(String shardId, String parent, ShardIteratorType start, String startSequence) {
            this.shardId = shardId;
            this.parent = parent;
            this.start = start;
            this.startSequence = startSequence;
        }

        void open() {
            try {
                if (lastRead != null) {
                    iterator = iterator(ShardIteratorType.AFTER_SEQUENCE_NUMBER, lastRead);
                } else {
                    iterator = iterator(start, startSequence);
                }
            } catch (TrimmedDataAccessException e) {
                throw new CaptureGap(
                        "the stream trimmed shard " + shardId + " past the capture's position: " + e.getMessage());
            } catch (ResourceNotFoundException e) {
                throw new CaptureGap("shard " + shardId + " is gone from the stream: " + e.getMessage());
            }
        }

        /** One GetRecords call, with the time it was issued and the records' bodies as the service sent them. */
        private Page fetch(String at) {
            Instant issued = clock.instant();
            var page = streams.getRecords(b -> b.shardIterator(at).limit(LIMIT));
            // as the service sent them; an answer the interceptor could not cut: as the SDK read them
            List<Body> records = StreamRecordBodies.take().orElseGet(() -> encoded(page.records()));
            return new Page(records, page.nextShardIterator(), issued);
        }

        private Page awaitAhead() {
            var pending = ahead;
            ahead = null;
            try {
                return pending.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw e;
            }
        }

        private String iterator(ShardIteratorType type, String sequence) {
            return streams.getShardIterator(b -> b.streamArn(streamArn)
                            .shardId(shardId)
                            .shardIteratorType(type)
                            .sequenceNumber(sequence))
                    .shardIterator();
        }

        /**
         * Reads one page; returns whether it was full. After a full page the next is asked for at once, on
         * another thread, while this one's records go to the sink: the stream serves it meanwhile.
         */
        boolean read(RecordSink sink) {
            if (iterator == null) {
                done = true;
                return false;
            }
            Page page;
            try {
                page = ahead != null ? awaitAhead() : fetch(iterator);
            } catch (ExpiredIteratorException e) {
                open(); // on after the last record handed on: the page read ahead is read again
                return true;
            } catch (TrimmedDataAccessException e) {
                throw new CaptureGap("the stream trimmed shard " + shardId + " before it was read: " + e.getMessage());
            }
            List<Body> records = page.records();
            String next = page.next();
            if (records.size() == LIMIT && next != null) {
                ahead = CompletableFuture.supplyAsync(() -> fetch(next), READ_AHEAD);
            }
            for (Body r : records) {
                sink.accept(shardId, r);
                lastRead = r.sequenceNumber();
                lastReadSecond = r.second();
            }
            if (records.size() < LIMIT) {
                caughtUpAt = page.issued();
            }
            iterator = next;
            done = next == null;
            return records.size() == LIMIT || done; // a shard read to its end: its children are next
        }
    }
}
