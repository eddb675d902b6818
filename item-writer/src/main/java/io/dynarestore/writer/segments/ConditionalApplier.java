package io.dynarestore.writer.segments;

import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.codec.ItemEquality;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.undo.UndoJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Applies a strict undo's batch one conditional write at a time (BatchWriteItem takes no
 * conditions). Rules: a key that holds its target image already is settled as in any restore; a
 * key that holds anything other than the image its line expects (written after planning) is a
 * conflict, left as it is and counted; the others are journaled first, then written on the
 * condition that they still hold the expected image ({@link RevertCondition}), and a write whose
 * condition fails is a conflict too, reported with the image found then.
 */
record ConditionalApplier(
        BatchWriter batches,
        SegmentVault vault,
        BatchWriter.Destination destination,
        SegmentDispatched work,
        WriteTally tally) {

    /** Applies {@code batch}, whose keys held {@code current} when read just before. */
    void apply(List<WriteOp> batch, Map<List<AttributeValue>, Map<String, AttributeValue>> current) {
        var writes = new ArrayList<WriteOp>();
        var journal = new ArrayList<UndoJournal.Entry>();
        for (WriteOp op : batch) {
            Map<String, AttributeValue> now = current.get(op.key());
            if (DynamoBatchApplier.settled(op, now, work, tally)) {
                continue;
            }
            if (!ItemEquality.same(now, op.expect().image())) {
                tally.conflicted(op, now);
                continue;
            }
            journal.add(new UndoJournal.Entry(op.keys(), now));
            writes.add(op);
        }
        if (writes.isEmpty()) {
            return;
        }
        if (work.journal() != null) {
            vault.saveJournal(work, journal, tally.line, tally.writer);
        }
        String partitionKey = work.target().keyAttributes().get(0);
        long changed = 0;
        long bytes = 0;
        for (int i = 0; i < writes.size(); i++) {
            WriteOp op = writes.get(i);
            var condition = RevertCondition.of(op.expect().image(), partitionKey);
            BatchWriter.Refusal refusal = batches.writeIf(destination, op, condition);
            if (refusal != null) {
                tally.conflicted(op, refusal.found());
                continue;
            }
            changed++;
            if (op.delete()) {
                tally.deleted++;
            } else {
                tally.written++;
                tally.overwritten += journal.get(i).before() == null ? 0 : 1;
                long size = ItemSize.of(op.image());
                tally.bytes += size;
                bytes += size;
                tally.wcu += destination.lane().cost(op.image());
            }
            tally.applied(op);
        }
        destination.lane().wrote(changed, bytes);
    }
}
