package io.dynarestore.writer.segments;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentProgressed;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.codec.ItemDigest;
import io.dynarestore.core.codec.ItemEquality;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.pitr.SkipKeys;
import io.dynarestore.core.vault.CorruptDataFileException;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.DataFileUnavailableException;
import io.dynarestore.core.vault.ExportLine;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import io.dynarestore.writer.capacity.WriteBudgets;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Writes one segment: streams its data file from S3 line by line and writes in batches of 25
 * (never two writes of one key in a batch, which DynamoDB refuses).
 *
 * <p>Rules. A BASE line's item is written unless a later change supersedes its key (the restore's
 * skip set). A DELTA line writes its final image, or deletes its key when it has none (only when
 * the destination may hold it; else the line is skipped). A record restore writes only images
 * its filter matches and never deletes. Where the destination may hold the keys already, each
 * batch is read first: an item equal to its image is not written again (unchanged), a different
 * one is overwritten, and a delete of an absent key is skipped. Progress is reported at a fixed
 * interval, completion with exact counts; a data file whose line count differs from its manifest
 * fails the segment rather than restoring a partial file silently.
 *
 * <p>Where the work names an undo journal, the image of every key a batch changes (or its
 * absence) is saved there before the batch is written; no change is made that could not be
 * undone. A dry run reads each batch the same way, pacing its reads in the table's lane, and
 * counts what it would do instead of doing it. Every segment reports its check for the restore's
 * verification: the checksum of what its lines ask for and of what was applied, and a few applied
 * keys to read back.
 */
final class SegmentWriter {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SegmentWriter.class);

    static final int BATCH = 25;

    private final AwsClients aws;
    private final EventPublisher publisher;
    private final BatchWriter batches;
    private final Duration progressInterval;
    private final Clock clock;
    private final SkipKeysCache skipSets;
    private final WriteBudgets budgets;
    private final Outages outages;
    /** {@code <restoreId>/<segment>} whose segment loses one item on purpose (a test of the verification). */
    private final String dropOneItem;

    SegmentWriter(AwsClients aws, EventPublisher publisher, BatchWriter batches, Duration progressInterval, Clock clock,
                  WriteBudgets budgets, Outages outages) {
        this(aws, publisher, batches, progressInterval, clock, budgets, outages, null);
    }

    SegmentWriter(AwsClients aws, EventPublisher publisher, BatchWriter batches, Duration progressInterval, Clock clock,
                  WriteBudgets budgets, Outages outages, String dropOneItem) {
        this.dropOneItem = dropOneItem == null || dropOneItem.isBlank() ? null : dropOneItem;
        this.aws = aws;
        this.publisher = publisher;
        this.batches = batches;
        this.progressInterval = progressInterval;
        this.clock = clock;
        this.skipSets = new SkipKeysCache(aws.s3(), 4);
        this.budgets = budgets;
        this.outages = outages;
    }

    /** One write of a batch: an image to put, or {@code null} to delete the key, and its digest. */
    private record Op(List<AttributeValue> key, Map<String, AttributeValue> keys, Map<String, AttributeValue> image,
                      long digest) {
    }

    /** Keys kept per segment to read back at the end of the restore. */
    static final int READ_BACK = 2;

    /** The running counts of a segment. */
    private static final class Tally {
        long written;
        long overwritten;
        long unchanged;
        long deleted;
        long skipped;
        long bytes;
        long wcu;
        long batchUnits;
        /** Sums of the digests of the ops the lines ask for, and of those applied (or found applied). */
        long sourceChecksum;
        long appliedChecksum;
        long resolved;
        boolean dropped;
        String writer;
        /** The data file's line the current batch ends at. */
        long line;
        /**
         * Keys an earlier owner of the segment changed after the checkpoint this one resumed from,
         * with whether each existed before: found at their target, they count as written by this
         * segment, not as unchanged ({@code null}: none known).
         */
        Map<io.dynarestore.core.pitr.KeyHash, Boolean> taken;
        List<String> keyNames;
        final List<SegmentCompleted.KeyImage> readBack = new ArrayList<>(READ_BACK);
        final List<io.dynarestore.contracts.status.Diff.Sample> samples = new ArrayList<>();
        java.util.Random sampler;

        SegmentCompleted.Counts counts() {
            return new SegmentCompleted.Counts(written, overwritten, unchanged, deleted, skipped);
        }

        /**
         * Adds an applied op to the checksum, and keeps a uniform sample of the applied keys
         * (reservoir sampling, seeded by the segment); only a kept key is encoded.
         */
        void applied(Op op) {
            appliedChecksum += op.digest();
            resolved++;
            int slot = readBack.size() < READ_BACK ? readBack.size() : (int) Math.min(READ_BACK,
                    (long) (sampler.nextDouble() * resolved));
            if (slot < READ_BACK) {
                // a put's digest is its image's; a delete leaves the key absent
                var sample = new SegmentCompleted.KeyImage(io.dynarestore.core.codec.DynamoJson.toJson(op.keys()),
                        op.image() == null ? null : ItemDigest.hex(op.digest()));
                if (slot == readBack.size()) {
                    readBack.add(sample);
                } else {
                    readBack.set(slot, sample);
                }
            }
        }

        void sample(io.dynarestore.contracts.status.Diff.Change change, Map<String, AttributeValue> keys,
                    List<String> changed) {
            if (samples.stream().filter(x -> x.change() == change).count()
                    < io.dynarestore.contracts.status.Diff.SAMPLES_PER_KIND) {
                samples.add(new io.dynarestore.contracts.status.Diff.Sample(change,
                        io.dynarestore.core.codec.DynamoJson.toJson(keys), changed));
            }
        }

        static Tally of(Checkpoint c, SegmentDispatched work) {
            var t = new Tally();
            t.sampler = new java.util.Random(work.restoreId().hashCode() * 31L + work.segment());
            if (c != null) {
                t.written = c.written();
                t.overwritten = c.overwritten();
                t.unchanged = c.unchanged();
                t.deleted = c.deleted();
                t.skipped = c.skipped();
                t.bytes = c.bytes();
                t.wcu = c.wcu();
                t.sourceChecksum = c.sourceChecksum() == null ? 0 : c.sourceChecksum();
                t.appliedChecksum = c.appliedChecksum() == null ? 0 : c.appliedChecksum();
            }
            return t;
        }

        Checkpoint checkpoint(SegmentDispatched work, long lines) {
            return new Checkpoint(work.restoreId(), work.segment(), lines, written, overwritten, unchanged, deleted,
                    skipped, bytes, wcu, sourceChecksum, appliedChecksum);
        }
    }


    /**
     * Writes the segment and publishes its completion.
     *
     * @param aborted   polled between lines; when it turns true the segment is given up
     * @param cancelled polled between lines; when it turns true the segment stops for good, with
     *                  {@link SegmentCancelledException} carrying what was written
     */
    SegmentCompleted write(SegmentDispatched work, String writer, BooleanSupplier aborted, BooleanSupplier cancelled,
                           Checkpoint resume, Consumer<Checkpoint> checkpoints) {
        long started = clock.millis();
        var target = work.target();
        DynamoDbClient dynamo = aws.dynamo(target.account(), target.region());
        var destination = new BatchWriter.Destination(dynamo, target.tableName(), budgets.lane(target),
                outages.table(target.account(), target.region(), target.tableName()),
                () -> aborted.getAsBoolean() || cancelled.getAsBoolean());
        List<String> keyNames = target.keyAttributes();
        boolean delta = work.role() == SegmentDispatched.Role.DELTA;
        SkipKeys skip = work.skipKeys() == null ? null : skipSets.get(work.skipKeys());
        RecordFilter filter = work.filter() == null ? null
                : RecordFilter.compile(work.filter(), KeySchema.of(keyNames, target.keyTypes()));
        var tally = Tally.of(resume, work);
        tally.writer = writer;
        tally.keyNames = keyNames;
        if (work.journal() != null && !work.dry()) {
            tally.taken = changedBefore(work, resume == null ? 0 : resume.lines(), keyNames);
        }
        long resumedFrom = resume == null ? 0 : resume.lines();
        long nextProgress = started + progressInterval.toMillis();
        var batch = new ArrayList<Op>(BATCH);
        Set<List<AttributeValue>> keysInBatch = new HashSet<>();
        long linesRead;
        try (var reader = open(work, () -> aborted.getAsBoolean() || cancelled.getAsBoolean())) {
            for (long i = 0; i < resumedFrom; i++) {
                if (reader.next() == null) {
                    throw new PermanentWriteException(work.source().key() + " ended after " + i + " lines, before the "
                            + resumedFrom + " lines its checkpoint says were written", null);
                }
            }
            ExportLine line;
            while ((line = reader.next()) != null) {
                if (cancelled.getAsBoolean()) {
                    throw new SegmentCancelledException(tally.written, tally.bytes);
                }
                if (aborted.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                    throw new SegmentAbortedException();
                }
                tally.line = reader.lines();
                Map<String, AttributeValue> keyed = delta ? line.keys() : line.item();
                if (keyed == null) {
                    throw new PermanentWriteException(work.source().key() + " line " + reader.lines() + " has no "
                            + (delta ? "Keys" : "Item") + " member; it is not a " + (delta ? "delta" : "full-export")
                            + " data file", null);
                }
                Map<String, AttributeValue> image = delta ? line.newImage() : line.item();
                List<AttributeValue> key = keyOf(keyed, keyNames, work, reader.lines());
                Op op;
                if (image == null) {
                    if (!work.applyDeletes() || filter != null) {
                        tally.skipped++;
                        continue;
                    }
                    var keys = keyMap(keyed, keyNames);
                    op = new Op(key, keys, null, ItemDigest.ofDelete(keys));
                } else if (skip != null && skip.contains(KeyHash.of(image, keyNames))
                        || filter != null && !filter.matches(image)) {
                    tally.skipped++;
                    continue;
                } else {
                    op = new Op(key, keyMap(image, keyNames), image, ItemDigest.of(image));
                }
                tally.sourceChecksum += op.digest();
                long units = image == null ? 1 : destination.lane().cost(image);
                if (!keysInBatch.add(key)
                        || !batch.isEmpty() && tally.batchUnits + units > destination.lane().maxBatchUnits()) {
                    // a batch never holds one key twice, and never costs more than a tenth of a second's budget
                    flush(destination, work, batch, keysInBatch, tally);
                    keysInBatch.add(key);
                }
                batch.add(op);
                tally.batchUnits += units;
                if (batch.size() == BATCH) {
                    flush(destination, work, batch, keysInBatch, tally);
                }
                if (clock.millis() >= nextProgress) {
                    flush(destination, work, batch, keysInBatch, tally);
                    // everything read so far is in the table: this is the segment's checkpoint
                    Checkpoint checkpoint = tally.checkpoint(work, reader.lines());
                    publisher.send(Topic.STATUS, work.restoreId(), SegmentProgressed.of(work.restoreId(),
                            work.segment(), work.dry() ? 0 : tally.written, tally.bytes, writer, reader.lines(), tally.wcu,
                            destination.lane().throttles()));
                    checkpoints.accept(checkpoint);
                    nextProgress = clock.millis() + progressInterval.toMillis();
                }
            }
            flush(destination, work, batch, keysInBatch, tally);
            linesRead = reader.lines();
            if (reader.lines() != work.source().itemCount()) {
                throw new PermanentWriteException(work.source().key() + " holds " + reader.lines()
                        + " items but its manifest says " + work.source().itemCount()
                        + "; the backup is inconsistent, so the segment was not counted as restored", null);
            }
        } catch (SegmentAbortedException e) {
            if (cancelled.getAsBoolean()) { // stopped inside a batch's pacing or retries
                throw new SegmentCancelledException(tally.written, tally.bytes);
            }
            throw e;
        } catch (CorruptDataFileException e) {
            throw new PermanentWriteException(e.getMessage(), e);
        } catch (DataFileUnavailableException e) {
            Outages.failed(outages.s3(), System.nanoTime(), e);
            throw new TransientWriteException(e.getMessage(), e);
        }
        SegmentCompleted completed;
        if (work.dry()) {
            // nothing was written: the counts say what the restore would do
            var diff = new io.dynarestore.contracts.status.Diff(tally.written - tally.overwritten, tally.overwritten,
                    tally.unchanged, tally.deleted, tally.skipped, List.copyOf(tally.samples));
            completed = SegmentCompleted.of(work.restoreId(), work.segment(),
                    new SegmentCompleted.Counts(0, 0, 0, 0, tally.skipped), 0, 0, writer, clock.millis() - started)
                    .withDiff(diff);
        } else {
            completed = SegmentCompleted.of(work.restoreId(), work.segment(), tally.counts(), tally.bytes, tally.wcu,
                    writer, clock.millis() - started).withCheck(new SegmentCompleted.Check(linesRead,
                    work.source().itemCount(), ItemDigest.hex(tally.sourceChecksum),
                    ItemDigest.hex(tally.appliedChecksum), List.copyOf(tally.readBack)));
        }
        completed = completed.resumedFrom(resume == null ? null : resumedFrom);
        publisher.status(completed);
        return completed;
    }

    private DataFileReader open(SegmentDispatched work, BooleanSupplier aborted) {
        var source = work.source();
        var s3 = outages.s3();
        if (!outages.permit(s3, aborted)) {
            throw new SegmentAbortedException();
        }
        long started = System.nanoTime();
        try {
            var reader = new DataFileReader(source.key(),
                    aws.s3().getObject(b -> b.bucket(source.bucket()).key(source.key())), source.md5Checksum());
            Outages.succeeded(s3, started);
            return reader;
        } catch (NoSuchKeyException e) {
            Outages.succeeded(s3, started);
            throw new PermanentWriteException("data file s3://" + source.bucket() + "/" + source.key()
                    + " is missing from the vault", e);
        } catch (S3Exception e) {
            throw s3Failed(e, started, "access to s3://" + source.bucket() + "/" + source.key()
                    + " is denied; grant s3:GetObject on the vault to item-writer", "S3 failed to serve "
                    + source.key());
        } catch (SdkClientException e) {
            Outages.failed(s3, started, e);
            throw new TransientWriteException("S3 is unreachable: " + e.getMessage(), e);
        }
    }

    private void flush(BatchWriter.Destination destination, SegmentDispatched work, List<Op> batch,
                       Set<List<AttributeValue>> keysInBatch, Tally tally) {
        tally.batchUnits = 0;
        if (batch.isEmpty()) {
            return;
        }
        Map<List<AttributeValue>, Map<String, AttributeValue>> current = work.readBeforeWrite()
                ? batches.read(destination, work.target().keyAttributes(), batch.stream().map(Op::keys).toList(),
                work.dry())
                : Map.of();
        if (work.dry()) {
            tallyDryRun(batch, current, tally);
            batch.clear();
            keysInBatch.clear();
            return;
        }
        var resolved = new ArrayList<Op>(batch.size());
        var journal = new ArrayList<io.dynarestore.core.undo.UndoJournal.Entry>();
        var writes = new ArrayList<WriteRequest>(batch.size());
        // counted once DynamoDB took the batch: a batch cut short by a cancel or an abort counts nothing
        long deleted = 0;
        long overwritten = 0;
        long written = 0;
        long bytes = 0;
        long wcu = 0;
        for (Op op : batch) {
            Map<String, AttributeValue> now = current.get(op.key());
            if (op.image() == null) {
                if (work.readBeforeWrite() && now == null) {
                    if (Boolean.TRUE.equals(taken(tally, op))) {
                        tally.deleted++; // an earlier owner of the segment deleted it
                    } else {
                        tally.skipped++;
                    }
                    tally.applied(op); // absent already
                    continue;
                }
                if (drop(work, tally)) {
                    continue;
                }
                journal.add(new io.dynarestore.core.undo.UndoJournal.Entry(op.keys(), now));
                writes.add(WriteRequest.builder().deleteRequest(d -> d.key(op.keys())).build());
                resolved.add(op);
                deleted++;
                continue;
            }
            if (now != null && ItemEquality.same(now, op.image())) {
                Boolean existed = taken(tally, op);
                if (existed != null) { // an earlier owner of the segment wrote it after its last checkpoint
                    tally.written++;
                    tally.overwritten += existed ? 1 : 0;
                    tally.bytes += ItemSize.of(op.image());
                } else {
                    tally.unchanged++;
                }
                tally.applied(op);
                continue;
            }
            if (drop(work, tally)) {
                continue;
            }
            if (now != null) {
                overwritten++;
            }
            journal.add(new io.dynarestore.core.undo.UndoJournal.Entry(op.keys(), now));
            resolved.add(op);
            writes.add(WriteRequest.builder().putRequest(PutRequest.builder().item(op.image()).build()).build());
            written++;
            bytes += ItemSize.of(op.image());
            wcu += destination.lane().cost(op.image());
        }
        if (!writes.isEmpty()) {
            if (work.journal() != null) {
                saveJournal(work, journal, tally.line, tally);
            }
            try {
                batches.write(destination, writes);
            } catch (SegmentAbortedException e) {
                if (e.unwritten != null) { // count what DynamoDB took before the stop, so that counts stay exact
                    // unprocessed items come back as equal copies; a batch never holds a key twice
                    var left = new HashSet<WriteRequest>(e.unwritten);
                    for (WriteRequest w : writes) {
                        if (!left.contains(w) && w.putRequest() != null) {
                            tally.written++;
                            tally.bytes += ItemSize.of(w.putRequest().item());
                            tally.wcu += destination.lane().cost(w.putRequest().item());
                        } else if (!left.contains(w)) {
                            tally.deleted++;
                        }
                    }
                }
                throw e;
            }
        }
        for (Op op : resolved) {
            tally.applied(op);
        }
        destination.lane().wrote(written + deleted, bytes);
        tally.deleted += deleted;
        tally.overwritten += overwritten;
        tally.written += written;
        tally.bytes += bytes;
        tally.wcu += wcu;
        batch.clear();
        keysInBatch.clear();
    }

    /**
     * Counts what a dry run's batch would do, as {@link #flush} would do it: creates and
     * overwrites (as written), items equal already, deletes of present keys; deletes of absent
     * keys are skipped.
     */
    private static void tallyDryRun(List<Op> batch, Map<List<AttributeValue>, Map<String, AttributeValue>> current,
                                    Tally tally) {
        for (Op op : batch) {
            Map<String, AttributeValue> now = current.get(op.key());
            if (op.image() == null) {
                if (now == null) {
                    tally.skipped++;
                } else {
                    tally.deleted++;
                    tally.sample(io.dynarestore.contracts.status.Diff.Change.DELETE, op.keys(), null);
                }
            } else if (now == null) {
                tally.written++;
                tally.sample(io.dynarestore.contracts.status.Diff.Change.CREATE, op.keys(), null);
            } else if (ItemEquality.same(now, op.image())) {
                tally.unchanged++;
                tally.sample(io.dynarestore.contracts.status.Diff.Change.EQUAL, op.keys(), null);
            } else {
                tally.written++;
                tally.overwritten++;
                tally.sample(io.dynarestore.contracts.status.Diff.Change.OVERWRITE, op.keys(), changed(now, op.image()));
            }
        }
    }

    /** The attributes that differ between two items (added, removed or changed), sorted by name. */
    static List<String> changed(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        var names = new java.util.TreeSet<String>(before.keySet());
        names.addAll(after.keySet());
        names.removeIf(n -> before.containsKey(n) && after.containsKey(n)
                && ItemEquality.same(before.get(n), after.get(n)));
        return List.copyOf(names);
    }

    /** The test hook: leaves the first write of the named segment out, once per attempt at it. */
    private boolean drop(SegmentDispatched work, Tally tally) {
        if (dropOneItem == null || tally.dropped
                || !dropOneItem.equals(work.restoreId() + "/" + work.segment())) {
            return false;
        }
        tally.dropped = true;
        return true;
    }

    private static Boolean taken(Tally tally, Op op) {
        return tally.taken == null ? null
                : tally.taken.get(io.dynarestore.core.pitr.KeyHash.of(op.keys(), tally.keyNames));
    }

    /** Most keys a segment's next owner takes from the journal of its earlier owners (16 bytes and a flag each). */
    static final int TAKEN_LIMIT = 500_000;

    /**
     * What earlier owners of the segment changed after line {@code after}, from the journal; an
     * unreadable or too large journal only makes the counts inexact, never the items.
     */
    private Map<io.dynarestore.core.pitr.KeyHash, Boolean> changedBefore(SegmentDispatched work, long after,
                                                                         List<String> keyNames) {
        try {
            var taken = io.dynarestore.core.undo.UndoJournal.changedAfter(aws.s3(), work.journal().bucket(),
                    work.journal().prefix(), work.segment(), after, keyNames, TAKEN_LIMIT);
            if (taken == null) {
                log.warn("restore {} segment {}: its earlier owners changed more than {} keys since line {}; items "
                        + "they wrote count as unchanged", work.restoreId(), work.segment(), TAKEN_LIMIT, after);
            }
            return taken == null || taken.isEmpty() ? null : taken;
        } catch (RuntimeException e) {
            log.warn("restore {} segment {}: its journal could not be read ({}); items its earlier owners wrote "
                    + "count as unchanged", work.restoreId(), work.segment(), e.toString());
            return null;
        }
    }

    /**
     * The failure of an S3 call, after telling the S3 breaker whether it was an outage (5xx): a
     * permanent one when access is denied ({@code denied} says what to grant), else transient.
     */
    private RuntimeException s3Failed(S3Exception e, long startedNanos, String denied, String failed) {
        if (e.statusCode() >= 500) {
            Outages.failed(outages.s3(), startedNanos, e);
        } else {
            Outages.succeeded(outages.s3(), startedNanos);
        }
        return e.statusCode() == 403 ? new PermanentWriteException(denied, e)
                : new TransientWriteException(failed + ": " + e.getMessage(), e);
    }

    /** Saves the prior images of a batch's keys before the batch changes them; no journal, no write. */
    private void saveJournal(SegmentDispatched work, List<io.dynarestore.core.undo.UndoJournal.Entry> entries,
                             long line, Tally tally) {
        var s3 = outages.s3();
        long startedAt = System.nanoTime();
        try {
            io.dynarestore.core.undo.UndoJournal.append(aws.s3(), work.journal().bucket(), work.journal().prefix(),
                    work.segment(), line, tally.writer, clock.millis(), entries);
            Outages.succeeded(s3, startedAt);
        } catch (S3Exception e) {
            throw s3Failed(e, startedAt, "item-writer may not write the undo journal to s3://"
                    + work.journal().bucket() + "/" + work.journal().prefix() + "; grant it s3:PutObject there",
                    "the undo journal could not be saved to S3");
        } catch (SdkClientException e) {
            Outages.failed(s3, startedAt, e);
            throw new TransientWriteException("S3 is unreachable for the undo journal: " + e.getMessage(), e);
        }
    }

    private static Map<String, AttributeValue> keyMap(Map<String, AttributeValue> item, List<String> keyAttributes) {
        var key = new LinkedHashMap<String, AttributeValue>();
        keyAttributes.forEach(k -> key.put(k, item.get(k)));
        return key;
    }

    private static List<AttributeValue> keyOf(Map<String, AttributeValue> item, List<String> keyAttributes,
                                              SegmentDispatched work, long line) {
        var key = new ArrayList<AttributeValue>(keyAttributes.size());
        for (String name : keyAttributes) {
            AttributeValue v = item.get(name);
            if (v == null) {
                throw new PermanentWriteException(work.source().key() + " line " + line + " lacks key attribute "
                        + name + " of table " + work.target().tableName(), null);
            }
            key.add(v);
        }
        return key;
    }
}
