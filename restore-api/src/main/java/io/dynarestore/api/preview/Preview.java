package io.dynarestore.api.preview;

import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.DeltaBuilder;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The first records a restore would write, read from the vault as far as needed and no further:
 * reading stops at {@code limit} matches, at {@code maxBytes} of records, at the time bound or
 * when the changed keys of a point in time outgrow the memory budget, and the answer says
 * whether the whole source was read and, if not, why. For a point in time, the changed keys'
 * final images come first (the delta is spilled to disk in buckets sized to the memory budget,
 * within the time bound), then the base's items that no change supersedes. The filter is the one
 * writers apply.
 */
public final class Preview {

    /** Memory a changed key takes in the set of superseded keys (a 16-byte hash in a hash set). */
    static final long BYTES_PER_CHANGED_KEY = 64;

    private final S3Client s3;
    private final VaultCatalog catalog;
    private final long memoryBudget;

    /** @param memoryBudget the most memory one preview's delta may take (its buckets and changed keys) */
    public Preview(S3Client s3, VaultCatalog catalog, long memoryBudget) {
        this.s3 = s3;
        this.catalog = catalog;
        this.memoryBudget = memoryBudget;
    }

    /**
     * @param records  the matched records, in the order read
     * @param columns  their attribute names: the key's first, then the others in alphabetical order
     * @param complete whether the whole source was read (then {@code records} are all the matches
     *                 when fewer than the limit)
     * @param scanned  items (and changes) read
     * @param stoppedBy why reading stopped early ({@code null} when it did not)
     */
    public record Result(
            List<Map<String, AttributeValue>> records,
            List<String> columns,
            boolean complete,
            long scanned,
            long elapsedMs,
            String stoppedBy) {}

    /**
     * @param resolution for a point in time, what to replay on {@code base}; {@code null} for the backup itself
     * @param filter     {@code null} to preview every item
     */
    public Result run(
            Backup base,
            PitrCoverage.Resolution resolution,
            KeySchema key,
            RecordFilter filter,
            int limit,
            long maxBytes,
            Duration timeLimit) {
        long start = System.nanoTime();
        long deadline = start + timeLimit.toNanos();
        var records = new Records(limit, maxBytes);
        long[] scanned = {0};
        Set<KeyHash> changed = new HashSet<>();
        String stoppedBy = null;
        try {
            if (resolution != null) {
                delta(base, resolution, key, filter, deadline, records, scanned, changed);
            }
            for (ManifestFile f : base.files()) {
                if (records.full()) {
                    break;
                }
                KeyPrefilter.Test wanted = k -> (filter == null || filter.keyMayMatch(k))
                        && (changed.isEmpty() || !changed.contains(KeyHash.of(k, key.names())));
                read(base.dataBucket(), f, deadline, KeyPrefilter.ofItems(key.names(), wanted), scanned, line -> {
                    var item = line.item();
                    if ((changed.isEmpty() || !changed.contains(KeyHash.of(item, key.names())))
                            && (filter == null || filter.matches(item))) {
                        records.add(item);
                    }
                    return !records.full();
                });
            }
        } catch (Stopped e) {
            stoppedBy = e.why;
        }
        if (stoppedBy == null && records.full()) {
            stoppedBy = records.list.size() >= limit
                    ? "the limit of " + limit + " records"
                    : "the limit of " + maxBytes + " bytes of records";
        }
        return new Result(
                records.list,
                columns(records.list, key),
                stoppedBy == null,
                scanned[0],
                Duration.ofNanos(System.nanoTime() - start).toMillis(),
                stoppedBy);
    }

    /** The final images of the keys changed up to the point in time, within the memory budget and the time bound. */
    private void delta(
            Backup base,
            PitrCoverage.Resolution resolution,
            KeySchema key,
            RecordFilter filter,
            long deadline,
            Records records,
            long[] scanned,
            Set<KeyHash> changed) {
        long from = base.metadata().takenAt().getEpochSecond() * 1_000_000L
                + base.metadata().takenAt().getNano() / 1_000;
        long until = resolution.pointInTime().getEpochSecond() * 1_000_000L + 1_000_000L;
        long changes = 0;
        var files = new ArrayList<Map.Entry<String, ManifestFile>>();
        for (ExportMetadata export : resolution.exports()) {
            String bucket = catalog.exportBucket(export);
            for (ManifestFile f : catalog.exportFiles(export)) {
                files.add(Map.entry(bucket, f));
                changes += f.itemCount() == null ? 0 : f.itemCount();
            }
        }
        long maxKeys = Math.max(1, memoryBudget / 2 / BYTES_PER_CHANGED_KEY);
        if (changes > maxKeys * 4) {
            // more changes than the memory budget could tell apart from the base: not worth reading
            throw new Stopped("the memory budget of the preview (" + changes + " changes since the backup; restore "
                    + "into a new table to see them all)");
        }
        try (var delta = new DeltaBuilder(key.names(), from, until, DeltaBuilder.bitsFor(changes, memoryBudget / 2))) {
            for (var f : files) {
                // a key no key filter matches has no image to show, at T or in the backup
                var wanted = filter == null ? null : KeyPrefilter.ofChanges(key.names(), filter::keyMayMatch);
                read(f.getKey(), f.getValue(), deadline, wanted, scanned, line -> {
                    delta.add(line);
                    return true;
                });
            }
            delta.build((hash, change) -> {
                if (System.nanoTime() > deadline) {
                    throw new Stopped("the time limit");
                }
                if (changed.size() >= maxKeys) {
                    throw new Stopped("the memory budget of the preview (more than " + maxKeys + " keys changed)");
                }
                changed.add(hash);
                var image = change.newImage();
                if (image != null && (filter == null || filter.matches(image))) {
                    records.add(image);
                }
            });
        }
    }

    /** The records kept, bounded by count and by bytes. */
    private static final class Records {
        final List<Map<String, AttributeValue>> list = new ArrayList<>();
        final int limit;
        final long maxBytes;
        long bytes;
        boolean overflowed;

        Records(int limit, long maxBytes) {
            this.limit = limit;
            this.maxBytes = maxBytes;
        }

        void add(Map<String, AttributeValue> item) {
            if (full()) {
                return;
            }
            long size = ItemSize.of(item);
            overflowed = bytes + size > maxBytes; // a record that does not fit ends the answer
            if (!overflowed) {
                bytes += size;
                list.add(item);
            }
        }

        boolean full() {
            return list.size() >= limit || overflowed;
        }
    }

    private interface LineHandler {
        /** Handles a line; false stops reading this file. */
        boolean handle(ExportLine line);
    }

    /** Reads a file's lines, those {@code prefilter} does not want unparsed, counting every line in {@code scanned}. */
    private void read(
            String bucket, ManifestFile f, long deadline, KeyPrefilter prefilter, long[] scanned, LineHandler handler) {
        if (System.nanoTime() > deadline) { // a selective reader returns no line while it passes lines over
            throw new Stopped("the time limit");
        }
        var object = s3.getObject(b -> b.bucket(bucket).key(f.dataFileS3Key()));
        try (var reader = DataFileReader.selective(f.dataFileS3Key(), object, null, prefilter)) {
            long counted = 0;
            try {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    scanned[0] += reader.lines() - counted;
                    counted = reader.lines();
                    if (System.nanoTime() > deadline) {
                        throw new Stopped("the time limit");
                    }
                    if (!handler.handle(line)) {
                        return;
                    }
                }
            } finally {
                scanned[0] += reader.lines() - counted;
            }
        }
    }

    private static List<String> columns(List<Map<String, AttributeValue>> records, KeySchema key) {
        var names = new LinkedHashSet<>(key.names());
        var others = new TreeSet<String>();
        records.forEach(r -> others.addAll(r.keySet()));
        others.removeAll(names);
        names.addAll(others);
        return List.copyOf(names);
    }

    /** Reading stopped before the end, for {@code why}. */
    private static final class Stopped extends RuntimeException {
        final String why;

        Stopped(String why) {
            super(why, null, false, false);
            this.why = why;
        }
    }
}
