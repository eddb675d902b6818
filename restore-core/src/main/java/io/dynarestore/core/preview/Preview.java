package io.dynarestore.core.preview;

import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.DeltaBuilder;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
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
 * reading stops at {@code limit} matches or at the time bound, and the answer says whether the
 * whole source was read. For a point in time, the changed keys' final images come first (the
 * delta is computed in full, within the time bound), then the base's items that no change
 * supersedes. The filter is the one writers apply.
 */
public final class Preview {

    private final S3Client s3;
    private final VaultCatalog catalog;

    public Preview(S3Client s3, VaultCatalog catalog) {
        this.s3 = s3;
        this.catalog = catalog;
    }

    /**
     * @param records  the matched records, in the order read
     * @param columns  their attribute names: the key's first, then the others in alphabetical order
     * @param complete whether the whole source was read (then {@code records} are all the matches
     *                 when fewer than the limit)
     * @param scanned  items (and changes) read
     */
    public record Result(List<Map<String, AttributeValue>> records, List<String> columns, boolean complete,
                         long scanned, long elapsedMs) {
    }

    /**
     * @param resolution for a point in time, what to replay on {@code base}; {@code null} for the backup itself
     * @param filter     {@code null} to preview every item
     */
    public Result run(Backup base, PitrCoverage.Resolution resolution, KeySchema key, RecordFilter filter, int limit,
                      Duration timeLimit) {
        long start = System.nanoTime();
        long deadline = start + timeLimit.toNanos();
        var records = new ArrayList<Map<String, AttributeValue>>();
        long[] scanned = {0};
        Set<KeyHash> changed = new HashSet<>();
        boolean complete = true;
        try {
            if (resolution != null) {
                long from = base.metadata().takenAt().getEpochSecond() * 1_000_000L
                        + base.metadata().takenAt().getNano() / 1_000;
                long until = resolution.pointInTime().getEpochSecond() * 1_000_000L + 1_000_000L;
                try (var delta = new DeltaBuilder(key.names(), from, until, 0)) {
                    for (ExportMetadata export : resolution.exports()) {
                        String bucket = catalog.exportBucket(export);
                        for (ManifestFile f : catalog.exportFiles(export)) {
                            read(bucket, f, deadline, line -> {
                                scanned[0]++;
                                delta.add(line);
                                return true;
                            });
                        }
                    }
                    delta.build((hash, change) -> {
                        changed.add(hash);
                        var image = change.newImage();
                        if (image != null && records.size() < limit && (filter == null || filter.matches(image))) {
                            records.add(image);
                        }
                    });
                }
            }
            for (ManifestFile f : base.files()) {
                if (records.size() >= limit) {
                    complete = false;
                    break;
                }
                read(base.dataBucket(), f, deadline, line -> {
                    scanned[0]++;
                    var item = line.item();
                    if ((changed.isEmpty() || !changed.contains(KeyHash.of(item, key.names())))
                            && (filter == null || filter.matches(item))) {
                        records.add(item);
                    }
                    return records.size() < limit;
                });
            }
        } catch (TimeUp e) {
            complete = false;
        }
        if (records.size() >= limit) {
            complete = false; // stopped at the limit: what follows was not read
        }
        return new Result(records, columns(records, key), complete, scanned[0],
                Duration.ofNanos(System.nanoTime() - start).toMillis());
    }

    private interface LineHandler {
        /** Handles a line; false stops reading this file. */
        boolean handle(ExportLine line);
    }

    private void read(String bucket, ManifestFile f, long deadline, LineHandler handler) {
        try (var reader = new DataFileReader(f.dataFileS3Key(), s3.getObject(b -> b.bucket(bucket)
                .key(f.dataFileS3Key())), null)) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                if (System.nanoTime() > deadline) {
                    throw new TimeUp();
                }
                if (!handler.handle(line)) {
                    return;
                }
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

    private static final class TimeUp extends RuntimeException {
        TimeUp() {
            super(null, null, false, false);
        }
    }
}
