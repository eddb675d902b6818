package io.dynarestore.writer.segments;

import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.codec.ItemEquality;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.undo.UndoJournal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Applies a batch with BatchWriteItem. Rules: an item equal to its image already is not written
 * (unchanged, or written by an earlier owner of the segment after its checkpoint); a delete of an
 * absent key is skipped (or counted as deleted when an earlier owner deleted it); the prior image
 * of every key the batch changes is saved to the undo journal first, when the work names one;
 * the counts change only once DynamoDB took the batch, and a batch cut short by a cancel or an
 * abort counts exactly what DynamoDB took. A strict undo's batch goes to {@link ConditionalApplier}.
 */
record DynamoBatchApplier(BatchWriter batches, SegmentVault vault) implements BatchApplier {

    /** What a batch will change: the writes, their prior images for the journal, and their counts. */
    private static final class Resolved {
        final List<WriteOp> ops = new ArrayList<>();
        final List<UndoJournal.Entry> journal = new ArrayList<>();
        final List<WriteRequest> writes = new ArrayList<>();
        long deleted;
        long overwritten;
        long written;
        long bytes;
        long wcu;
    }

    @Override
    public void apply(
            BatchWriter.Destination destination,
            SegmentDispatched work,
            List<WriteOp> batch,
            Map<List<AttributeValue>, Map<String, AttributeValue>> current,
            WriteTally tally) {
        if (work.strict()) {
            new ConditionalApplier(batches, vault, destination, work, tally).apply(batch, current);
            return;
        }
        var resolved = new Resolved();
        for (WriteOp op : batch) {
            resolve(destination, work, op, current.get(op.key()), tally, resolved);
        }
        if (!resolved.writes.isEmpty()) {
            if (work.journal() != null) {
                vault.saveJournal(work, resolved.journal, tally.line, tally.writer);
            }
            write(destination, resolved.writes, tally);
        }
        for (WriteOp op : resolved.ops) {
            tally.applied(op);
        }
        destination.lane().wrote(resolved.written + resolved.deleted, resolved.bytes);
        tally.deleted += resolved.deleted;
        tally.overwritten += resolved.overwritten;
        tally.written += resolved.written;
        tally.bytes += resolved.bytes;
        tally.wcu += resolved.wcu;
    }

    /**
     * Settles an op that needs no write and returns {@code true}: a delete of an absent key
     * (skipped, or deleted by an earlier owner of the segment), or an image the key holds already
     * (unchanged, or written by an earlier owner after its last checkpoint).
     */
    static boolean settled(WriteOp op, Map<String, AttributeValue> now, SegmentDispatched work, WriteTally tally) {
        if (op.delete()) {
            if (!work.readBeforeWrite() || now != null) {
                return false;
            }
            if (Boolean.TRUE.equals(tally.taken(op))) {
                tally.deleted++; // an earlier owner of the segment deleted it
            } else {
                tally.skipped++;
            }
            tally.applied(op); // absent already
            return true;
        }
        if (now == null || !ItemEquality.same(now, op.image())) {
            return false;
        }
        Boolean existed = tally.taken(op);
        if (existed != null) { // an earlier owner of the segment wrote it after its last checkpoint
            tally.written++;
            tally.overwritten += existed ? 1 : 0;
            tally.bytes += ItemSize.of(op.image());
        } else {
            tally.unchanged++;
        }
        tally.applied(op);
        return true;
    }

    private static void resolve(
            BatchWriter.Destination destination,
            SegmentDispatched work,
            WriteOp op,
            Map<String, AttributeValue> now,
            WriteTally tally,
            Resolved resolved) {
        if (settled(op, now, work, tally)) {
            return;
        }
        resolved.journal.add(new UndoJournal.Entry(op.keys(), now));
        resolved.ops.add(op);
        if (op.delete()) {
            resolved.writes.add(
                    WriteRequest.builder().deleteRequest(d -> d.key(op.keys())).build());
            resolved.deleted++;
            return;
        }
        if (now != null) {
            resolved.overwritten++;
        }
        resolved.writes.add(WriteRequest.builder()
                .putRequest(PutRequest.builder().item(op.image()).build())
                .build());
        resolved.written++;
        resolved.bytes += ItemSize.of(op.image());
        resolved.wcu += destination.lane().cost(op.image());
    }

    private void write(BatchWriter.Destination destination, List<WriteRequest> writes, WriteTally tally) {
        try {
            batches.write(destination, writes);
        } catch (SegmentAbortedException e) {
            if (e.unwritten != null) { // count what DynamoDB took before the stop, so that counts stay exact
                // unprocessed items come back as equal copies; a batch never holds a key twice
                var left = new HashSet<>(e.unwritten);
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
}
