package io.dynarestore.writer.segments;

import io.dynarestore.contracts.status.Diff;
import io.dynarestore.core.codec.ItemEquality;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Counts what a dry run's batch would do, as {@link DynamoBatchApplier} would do it: creates and
 * overwrites (as written), items equal already, deletes of present keys; deletes of absent keys
 * are skipped; a strict undo's key that holds neither its target nor its expected image would be a
 * conflict. Keeps samples of each kind of change, an overwrite's with the attributes it changes.
 */
final class DryRunTally {

    private DryRunTally() {}

    static void count(
            List<WriteOp> batch, Map<List<AttributeValue>, Map<String, AttributeValue>> current, WriteTally tally) {
        for (WriteOp op : batch) {
            Map<String, AttributeValue> now = current.get(op.key());
            if (op.expect() != null
                    && !ItemEquality.same(now, op.image())
                    && !ItemEquality.same(now, op.expect().image())) {
                tally.conflicted(op, now);
            } else if (op.delete()) {
                if (now == null) {
                    tally.skipped++;
                } else {
                    tally.deleted++;
                    tally.sample(Diff.Change.DELETE, op.keys(), null);
                }
            } else if (now == null) {
                tally.written++;
                tally.sample(Diff.Change.CREATE, op.keys(), null);
            } else if (ItemEquality.same(now, op.image())) {
                tally.unchanged++;
                tally.sample(Diff.Change.EQUAL, op.keys(), null);
            } else {
                tally.written++;
                tally.overwritten++;
                tally.sample(Diff.Change.OVERWRITE, op.keys(), changed(now, op.image()));
            }
        }
    }

    /** The attributes that differ between two items (added, removed or changed), sorted by name. */
    static List<String> changed(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        var names = new TreeSet<>(before.keySet());
        names.addAll(after.keySet());
        names.removeIf(
                n -> before.containsKey(n) && after.containsKey(n) && ItemEquality.same(before.get(n), after.get(n)));
        return List.copyOf(names);
    }
}
