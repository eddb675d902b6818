package io.dynarestore.writer.segments;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentProgressed;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.aws.AwsClients;
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
 */
final class SegmentWriter {

    static final int BATCH = 25;

    private final AwsClients aws;
    private final EventPublisher publisher;
    private final BatchWriter batches;
    private final Duration progressInterval;
    private final Clock clock;
    private final SkipKeysCache skipSets;
    private final WriteBudgets budgets;
    private final Outages outages;

    SegmentWriter(AwsClients aws, EventPublisher publisher, BatchWriter batches, Duration progressInterval, Clock clock,
                  WriteBudgets budgets, Outages outages) {
        this.aws = aws;
        this.publisher = publisher;
        this.batches = batches;
        this.progressInterval = progressInterval;
        this.clock = clock;
        this.skipSets = new SkipKeysCache(aws.s3(), 4);
        this.budgets = budgets;
        this.outages = outages;
    }

    /** One write of a batch: an image to put, or {@code null} to delete the key. */
    private record Op(List<AttributeValue> key, Map<String, AttributeValue> keys, Map<String, AttributeValue> image) {
    }

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

        SegmentCompleted.Counts counts() {
            return new SegmentCompleted.Counts(written, overwritten, unchanged, deleted, skipped);
        }

        static Tally of(Checkpoint c) {
            var t = new Tally();
            if (c != null) {
                t.written = c.written();
                t.overwritten = c.overwritten();
                t.unchanged = c.unchanged();
                t.deleted = c.deleted();
                t.skipped = c.skipped();
                t.bytes = c.bytes();
                t.wcu = c.wcu();
            }
            return t;
        }

        Checkpoint checkpoint(SegmentDispatched work, long lines) {
            return new Checkpoint(work.restoreId(), work.segment(), lines, written, overwritten, unchanged, deleted,
                    skipped, bytes, wcu);
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
        var tally = Tally.of(resume);
        long resumedFrom = resume == null ? 0 : resume.lines();
        long nextProgress = started + progressInterval.toMillis();
        var batch = new ArrayList<Op>(BATCH);
        Set<List<AttributeValue>> keysInBatch = new HashSet<>();
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
                    op = new Op(key, keyMap(keyed, keyNames), null);
                } else if (skip != null && skip.contains(KeyHash.of(image, keyNames))
                        || filter != null && !filter.matches(image)) {
                    tally.skipped++;
                    continue;
                } else {
                    op = new Op(key, keyMap(image, keyNames), image);
                }
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
                            work.segment(), tally.written, tally.bytes, writer, reader.lines(), tally.wcu,
                            destination.lane().throttles()));
                    checkpoints.accept(checkpoint);
                    nextProgress = clock.millis() + progressInterval.toMillis();
                }
            }
            flush(destination, work, batch, keysInBatch, tally);
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
        var completed = SegmentCompleted.of(work.restoreId(), work.segment(), tally.counts(), tally.bytes, tally.wcu,
                writer, clock.millis() - started).resumedFrom(resume == null ? null : resumedFrom);
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
            if (e.statusCode() >= 500) {
                Outages.failed(s3, started, e);
            } else {
                Outages.succeeded(s3, started);
            }
            if (e.statusCode() == 403) {
                throw new PermanentWriteException("access to s3://" + source.bucket() + "/" + source.key()
                        + " is denied; grant s3:GetObject on the vault to item-writer", e);
            }
            throw new TransientWriteException("S3 failed to serve " + source.key() + ": " + e.getMessage(), e);
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
                ? batches.read(destination, work.target().keyAttributes(), batch.stream().map(Op::keys).toList())
                : Map.of();
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
                    tally.skipped++;
                    continue;
                }
                writes.add(WriteRequest.builder().deleteRequest(d -> d.key(op.keys())).build());
                deleted++;
                continue;
            }
            if (now != null && ItemEquality.same(now, op.image())) {
                tally.unchanged++;
                continue;
            }
            if (now != null) {
                overwritten++;
            }
            writes.add(WriteRequest.builder().putRequest(PutRequest.builder().item(op.image()).build()).build());
            written++;
            bytes += ItemSize.of(op.image());
            wcu += destination.lane().cost(op.image());
        }
        if (!writes.isEmpty()) {
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
        destination.lane().wrote(written + deleted, bytes);
        tally.deleted += deleted;
        tally.overwritten += overwritten;
        tally.written += written;
        tally.bytes += bytes;
        tally.wcu += wcu;
        batch.clear();
        keysInBatch.clear();
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
