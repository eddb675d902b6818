package io.dynarestore.core.undo;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The undo journal of a restore into an existing table or in place. Before a writer changes a
 * batch of keys it puts one object holding each key's image from before the change ({@code
 * OldImage}, absent when the key did not exist), so the restore can be undone whatever became of
 * it. Objects are named {@code <prefix><segment>/<time>-<line>-<writer>.json.gz}, with the
 * segment and the time zero-padded, so that names sort in the order the changes were made within
 * a segment; {@code line} is the data file's line the batch ended at, so that a segment's next
 * owner knows which keys were changed after the checkpoint it resumes from. Only changes are journaled: an item already equal to its target is not written and
 * a delete of an absent key is not sent, so a segment written again after a crash journals
 * nothing for the keys its first owner already changed, and each key's first entry is its image
 * from before the restore.
 */
public final class UndoJournal {

    /** Where the journals of all restores live in the vault bucket. */
    public static final String ROOT = "_journal/";

    private UndoJournal() {}

    /** The journal prefix of a restore. */
    public static String prefix(String restoreId) {
        return ROOT + restoreId + "/";
    }

    /** One key's image from before the restore changed it; {@code before} is {@code null} when it did not exist. */
    public record Entry(Map<String, AttributeValue> key, Map<String, AttributeValue> before) {}

    /** Puts the entries of one batch, before the batch is written; returns the object's key. */
    public static String append(
            S3Client s3,
            String bucket,
            String prefix,
            int segment,
            long line,
            String writer,
            long millis,
            List<Entry> entries) {
        String key = String.format(
                "%s%06d/%013d-%012d-%s.json.gz",
                prefix, segment, millis, line, writer.replaceAll("[^A-Za-z0-9_.-]", "_"));
        var bytes = new ByteArrayOutputStream();
        try (var gzip = new GZIPOutputStream(bytes);
                var g = DynamoJson.generator(gzip)) {
            for (Entry e : entries) {
                ExportLine.change(e.key(), e.before(), null, millis * 1000).write(g);
                g.writeRaw('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        s3.putObject(
                b -> b.bucket(bucket).key(key).contentType("application/gzip"),
                RequestBody.fromBytes(bytes.toByteArray()));
        return key;
    }

    /** The segments that journaled anything, in ascending order. */
    public static List<Integer> segments(S3Client s3, String bucket, String prefix) {
        var segments = new ArrayList<Integer>();
        for (var page :
                s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix).delimiter("/"))) {
            for (var p : page.commonPrefixes()) {
                String name = p.prefix().substring(prefix.length(), p.prefix().length() - 1);
                try {
                    segments.add(Integer.parseInt(name));
                } catch (NumberFormatException e) {
                    // not a segment folder; never written by a writer
                }
            }
        }
        segments.sort(Comparator.naturalOrder());
        return segments;
    }

    /** The object keys of a segment's journal, newest first (one per batch that changed the table). */
    public static List<String> newestFirst(S3Client s3, String bucket, String prefix, int segment) {
        var keys = new ArrayList<String>();
        String folder = String.format("%s%06d/", prefix, segment);
        for (var page : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(folder))) {
            page.contents().stream().map(S3Object::key).forEach(keys::add);
        }
        keys.sort(Comparator.reverseOrder());
        return keys;
    }

    /**
     * The keys a segment's journal says were changed in batches that ended after file line {@code
     * afterLine} (by an owner of the segment that stopped after its last checkpoint), each with
     * whether it existed before; {@code null} when there are more than {@code limit}, so that a
     * segment's next owner holds a bounded set.
     */
    public static Map<KeyHash, Boolean> changedAfter(
            S3Client s3,
            String bucket,
            String prefix,
            int segment,
            long afterLine,
            List<String> keyAttributes,
            int limit) {
        var changed = new HashMap<KeyHash, Boolean>();
        for (String key : newestFirst(s3, bucket, prefix, segment)) {
            if (lineOf(key) <= afterLine) {
                continue;
            }
            for (Entry e : read(s3, bucket, key)) {
                changed.merge(KeyHash.of(e.key(), keyAttributes), e.before() != null, (first, later) -> first || later);
                if (changed.size() > limit) {
                    return null;
                }
            }
        }
        return changed;
    }

    /** The file line a journal object's batch ended at, from its name ({@code <time>-<line>-<writer>}). */
    static long lineOf(String key) {
        String name = key.substring(key.lastIndexOf('/') + 1);
        String[] parts = name.split("-", 3);
        try {
            return parts.length < 3 ? Long.MAX_VALUE : Long.parseLong(parts[1]);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    /** The entries of one journal object. */
    public static List<Entry> read(S3Client s3, String bucket, String key) {
        var entries = new ArrayList<Entry>();
        try (var reader =
                new DataFileReader(key, s3.getObject(b -> b.bucket(bucket).key(key)), null)) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                entries.add(new Entry(line.keys(), line.oldImage()));
            }
        }
        return entries;
    }
}
