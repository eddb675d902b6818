package io.dynarestore.writer.segments;

import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.codec.ItemDigest;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.pitr.SkipKeys;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.KeyPrefilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Turns the lines of one segment's data file into writes. Rules: a BASE line's item is written
 * unless a later change supersedes its key (the restore's skip set); a DELTA line writes its
 * final image, or deletes its key when it has none, only where the destination may hold the key;
 * a record restore writes only images its filter matches and never deletes. A strict undo's line
 * expects its {@code OldImage} in the destination. A line without its member or a key attribute
 * fails the segment for good: the file is not what the work says.
 */
final class LineOps {

    private final SegmentDispatched work;
    private final List<String> keyNames;
    private final boolean delta;
    private final SkipKeys skip;
    private final RecordFilter filter;
    private final boolean strict;

    LineOps(SegmentDispatched work, SkipKeys skip) {
        this.work = work;
        this.keyNames = work.target().keyAttributes();
        this.delta = work.role() == SegmentDispatched.Role.DELTA;
        this.skip = skip;
        this.strict = delta && work.strict();
        this.filter = work.filter() == null
                ? null
                : RecordFilter.compile(
                        work.filter(), KeySchema.of(keyNames, work.target().keyTypes()));
    }

    /**
     * Which lines the reader may pass over unparsed, by key: a record restore's lines whose key no
     * key filter matches (their images never match, and their deletes are never applied), and a base
     * file's lines whose key a later change supersedes. {@code null} when every line is written.
     */
    KeyPrefilter prefilter() {
        if (filter == null && (skip == null || delta)) {
            return null;
        }
        KeyPrefilter.Test test = key -> (filter == null || filter.keyMayMatch(key))
                && (delta || skip == null || !skip.contains(KeyHash.of(key, keyNames)));
        return delta ? KeyPrefilter.ofChanges(keyNames, test) : KeyPrefilter.ofItems(keyNames, test);
    }

    /** The write line {@code number} asks for, or {@code null} when the restore skips it. */
    WriteOp of(ExportLine line, long number) {
        Map<String, AttributeValue> keyed = delta ? line.keys() : line.item();
        if (keyed == null) {
            throw new PermanentWriteException(
                    work.source().key() + " line " + number + " has no "
                            + (delta ? "Keys" : "Item") + " member; it is not a " + (delta ? "delta" : "full-export")
                            + " data file",
                    null);
        }
        Map<String, AttributeValue> image = delta ? line.newImage() : line.item();
        List<AttributeValue> key = keyOf(keyed, number);
        if (image == null) {
            if (!work.applyDeletes() || filter != null) {
                return null;
            }
            var keys = keyMap(keyed);
            return expecting(new WriteOp(key, keys, null, ItemDigest.ofDelete(keys)), line);
        }
        if (skip != null && skip.contains(KeyHash.of(image, keyNames)) || filter != null && !filter.matches(image)) {
            return null;
        }
        return expecting(new WriteOp(key, keyMap(image), image, ItemDigest.of(image)), line);
    }

    private WriteOp expecting(WriteOp op, ExportLine line) {
        return strict ? op.expecting(line.oldImage()) : op;
    }

    private Map<String, AttributeValue> keyMap(Map<String, AttributeValue> item) {
        var key = new LinkedHashMap<String, AttributeValue>();
        keyNames.forEach(k -> key.put(k, item.get(k)));
        return key;
    }

    private List<AttributeValue> keyOf(Map<String, AttributeValue> item, long number) {
        var key = new ArrayList<AttributeValue>(keyNames.size());
        for (String name : keyNames) {
            AttributeValue v = item.get(name);
            if (v == null) {
                throw new PermanentWriteException(
                        work.source().key() + " line " + number + " lacks key attribute " + name + " of table "
                                + work.target().tableName(),
                        null);
            }
            key.add(v);
        }
        return key;
    }
}
