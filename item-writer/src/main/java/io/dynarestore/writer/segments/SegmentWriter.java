package io.dynarestore.writer.segments;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentProgressed;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.CorruptDataFileException;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.DataFileUnavailableException;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.writer.capacity.WriteBudgets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Writes one segment: streams its data file from S3 line by line and writes in batches of 25
 * (never two writes of one key in a batch, which DynamoDB refuses).
 *
 * <p>Rules. Which lines become writes is {@link LineOps}'s; where the destination may hold the
 * keys already, each batch is read first, and {@link BatchApplier} decides what it changes.
 * Progress is reported at a fixed interval (a checkpoint: everything read so far is in the
 * table), completion with exact counts; a data file whose line count differs from its manifest
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

    static final int BATCH = 25;

    private final AwsClients aws;
    private final EventPublisher publisher;
    private final BatchWriter batches;
    private final BatchApplier applier;
    private final SegmentVault vault;
    private final Duration progressInterval;
    private final Clock clock;
    private final SkipKeysCache skipSets;
    private final WriteBudgets budgets;
    private final Outages outages;

    SegmentWriter(
            AwsClients aws,
            EventPublisher publisher,
            BatchWriter batches,
            BatchApplier applier,
            SegmentVault vault,
            Duration progressInterval,
            Clock clock,
            WriteBudgets budgets,
            Outages outages) {
        this.aws = aws;
        this.publisher = publisher;
        this.batches = batches;
        this.applier = applier;
        this.vault = vault;
        this.progressInterval = progressInterval;
        this.clock = clock;
        this.skipSets = new SkipKeysCache(aws.s3(), 4);
        this.budgets = budgets;
        this.outages = outages;
    }

    /** The writes gathered for the next BatchWriteItem: at most 25, never one key twice, within the lane's units. */
    private static final class Batch {
        final List<WriteOp> ops = new ArrayList<>(BATCH);
        final Set<List<AttributeValue>> keys = new HashSet<>();

        void clear() {
            ops.clear();
            keys.clear();
        }
    }

    /**
     * Writes the segment and publishes its completion.
     *
     * @param aborted   polled between lines; when it turns true the segment is given up
     * @param cancelled polled between lines; when it turns true the segment stops for good, with
     *                  {@link SegmentCancelledException} carrying what was written
     */
    SegmentCompleted write(
            SegmentDispatched work,
            String writer,
            BooleanSupplier aborted,
            BooleanSupplier cancelled,
            Checkpoint resume,
            Consumer<Checkpoint> checkpoints) {
        long started = clock.millis();
        BooleanSupplier stopped = () -> aborted.getAsBoolean() || cancelled.getAsBoolean();
        var target = work.target();
        var destination = new BatchWriter.Destination(
                aws.dynamo(target.account(), target.region()),
                target.tableName(),
                budgets.lane(target),
                outages.table(target.account(), target.region(), target.tableName()),
                stopped);
        var tally = WriteTally.of(resume, work);
        tally.writer = writer;
        tally.keyNames = target.keyAttributes();
        long resumedFrom = resume == null ? 0 : resume.lines();
        if (work.journal() != null && !work.dry()) {
            tally.taken = vault.changedBefore(work, resumedFrom, target.keyAttributes());
        }
        var ops = new LineOps(work, work.skipKeys() == null ? null : skipSets.get(work.skipKeys()));
        long linesRead;
        try (var reader = vault.open(work, ops.prefilter(), stopped)) {
            skipWritten(reader, work, resumedFrom);
            linesRead = writeLines(reader, ops, destination, work, tally, aborted, cancelled, checkpoints);
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
        SegmentCompleted completed = completion(work, tally, linesRead, clock.millis() - started)
                .resumedFrom(resume == null ? null : resumedFrom);
        publisher.status(completed);
        return completed;
    }

    /** Reads past the lines a checkpoint says are in the table already. */
    private static void skipWritten(DataFileReader reader, SegmentDispatched work, long resumedFrom) {
        for (long i = 0; i < resumedFrom; i++) {
            if (!reader.skip()) {
                throw new PermanentWriteException(
                        work.source().key() + " ended after " + i + " lines, before the " + resumedFrom
                                + " lines its checkpoint says were written",
                        null);
            }
        }
    }

    /** Writes the lines left in batches, with progress and checkpoints; returns how many lines the file held. */
    private long writeLines(
            DataFileReader reader,
            LineOps ops,
            BatchWriter.Destination destination,
            SegmentDispatched work,
            WriteTally tally,
            BooleanSupplier aborted,
            BooleanSupplier cancelled,
            Consumer<Checkpoint> checkpoints) {
        long nextProgress = clock.millis() + progressInterval.toMillis();
        var batch = new Batch();
        ExportLine line;
        long passedOver = 0;
        while ((line = reader.next()) != null) {
            tally.skipped += reader.passedOver() - passedOver; // lines the reader did not parse, by their key
            passedOver = reader.passedOver();
            if (cancelled.getAsBoolean()) {
                throw new SegmentCancelledException(tally.written, tally.bytes);
            }
            if (aborted.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                throw new SegmentAbortedException();
            }
            tally.line = reader.lines();
            WriteOp op = ops.of(line, reader.lines());
            if (op == null) {
                tally.skipped++;
                continue;
            }
            tally.sourceChecksum += op.digest();
            add(op, batch, destination, work, tally);
            if (clock.millis() >= nextProgress) {
                flush(destination, work, batch, tally);
                checkpoint(destination, work, tally, reader.lines(), checkpoints);
                nextProgress = clock.millis() + progressInterval.toMillis();
            }
        }
        tally.skipped += reader.passedOver() - passedOver;
        flush(destination, work, batch, tally);
        if (reader.lines() != work.source().itemCount()) {
            throw new PermanentWriteException(
                    work.source().key() + " holds " + reader.lines()
                            + " items but its manifest says " + work.source().itemCount()
                            + "; the backup is inconsistent, so the segment was not counted as restored",
                    null);
        }
        return reader.lines();
    }

    /** Reports progress and saves the checkpoint: everything of the first {@code lines} lines is in the table. */
    private void checkpoint(
            BatchWriter.Destination destination,
            SegmentDispatched work,
            WriteTally tally,
            long lines,
            Consumer<Checkpoint> checkpoints) {
        Checkpoint checkpoint = tally.checkpoint(work, lines);
        publisher.send(
                Topic.STATUS,
                work.restoreId(),
                SegmentProgressed.of(
                        work.restoreId(),
                        work.segment(),
                        work.dry() ? 0 : tally.written,
                        tally.bytes,
                        tally.writer,
                        lines,
                        tally.wcu,
                        destination.lane().throttles()));
        checkpoints.accept(checkpoint);
    }

    /** Adds a write to the batch, flushing first where it would hold its key twice or cost too much. */
    private void add(
            WriteOp op, Batch batch, BatchWriter.Destination destination, SegmentDispatched work, WriteTally tally) {
        long units = op.delete() ? 1 : destination.lane().cost(op.image());
        if (!batch.keys.add(op.key())
                || !batch.ops.isEmpty()
                        && tally.batchUnits + units > destination.lane().maxBatchUnits()) {
            // a batch never holds one key twice, and never costs more than a tenth of a second's budget
            flush(destination, work, batch, tally);
            batch.keys.add(op.key());
        }
        batch.ops.add(op);
        tally.batchUnits += units;
        if (batch.ops.size() == BATCH) {
            flush(destination, work, batch, tally);
        }
    }

    private void flush(BatchWriter.Destination destination, SegmentDispatched work, Batch batch, WriteTally tally) {
        tally.batchUnits = 0;
        if (batch.ops.isEmpty()) {
            return;
        }
        Map<List<AttributeValue>, Map<String, AttributeValue>> current = work.readBeforeWrite()
                ? batches.read(
                        destination,
                        work.target().keyAttributes(),
                        batch.ops.stream().map(WriteOp::keys).toList(),
                        work.dry())
                : Map.of();
        if (work.dry()) {
            DryRunTally.count(batch.ops, current, tally);
        } else {
            applier.apply(destination, work, batch.ops, current, tally);
        }
        batch.clear();
    }

    /** The segment's completion: a dry run's diff (nothing written), or the counts with the verification's check. */
    private static SegmentCompleted completion(
            SegmentDispatched work, WriteTally tally, long linesRead, long durationMs) {
        if (work.dry()) {
            return SegmentCompleted.of(
                            work.restoreId(),
                            work.segment(),
                            new SegmentCompleted.Counts(0, 0, 0, 0, tally.skipped),
                            0,
                            0,
                            tally.writer,
                            durationMs)
                    .withDiff(tally.diff())
                    .withConflicts(tally.conflicts());
        }
        return SegmentCompleted.of(
                        work.restoreId(),
                        work.segment(),
                        tally.counts(),
                        tally.bytes,
                        tally.wcu,
                        tally.writer,
                        durationMs)
                .withCheck(tally.check(linesRead, work.source().itemCount()))
                .withConflicts(tally.conflicts());
    }
}
