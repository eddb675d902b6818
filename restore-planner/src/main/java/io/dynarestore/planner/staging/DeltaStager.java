package io.dynarestore.planner.staging;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.DeltaBuilder;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.pitr.KeyRange;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Computes the delta of a point-in-time restore in one pass over the exports it needs, and stages
 * it in the vault under {@code _staging/<restoreId>/}: {@code delta/} data files with their
 * {@code manifest-files.json}, {@code skip-keys.bin}, and {@code delta.json} (written last).
 * Staging again for the same restore overwrites the same keys, so a planner that crashed while
 * staging simply stages again.
 */
public final class DeltaStager {

    public static final String SUMMARY = "delta.json";
    public static final String SKIP_KEYS = "skip-keys.bin";

    private final S3Client s3;
    private final VaultCatalog catalog;
    private final long memoryBudgetBytes;
    private final int linesPerFile;

    public DeltaStager(S3Client s3, VaultCatalog catalog, long memoryBudgetBytes, int linesPerFile) {
        this.s3 = s3;
        this.catalog = catalog;
        this.memoryBudgetBytes = memoryBudgetBytes;
        this.linesPerFile = linesPerFile;
    }

    /** What was staged for a restore. {@code skipKeys} is the key of the skip-key file (in the vault bucket). */
    public record StagedDelta(
            String bucket, String skipKeys, long puts, long deletes, long changesRead, List<ManifestFile> files) {
        public long keys() {
            return puts + deletes;
        }
    }

    public StagedDelta stage(String restoreId, PitrCoverage.Resolution resolution, List<String> keyAttributes) {
        return stage(restoreId, resolution, keyAttributes, null);
    }

    /**
     * Stages the delta of the keys {@code filter}'s key filters may match, all keys where it is
     * {@code null}: a record restore writes no other key, so the others' changes are passed over
     * unparsed and take no room in the delta or the skip set.
     */
    public StagedDelta stage(
            String restoreId, PitrCoverage.Resolution resolution, List<String> keyAttributes, RecordFilter filter) {
        return stage(restoreId, DeltaInput.of(resolution, keyAttributes), filter);
    }

    /** Stages the delta of {@code input} here, in one pass. */
    public StagedDelta stage(String restoreId, DeltaInput input) {
        return stage(restoreId, input, input.filter());
    }

    private StagedDelta stage(String restoreId, DeltaInput input, RecordFilter filter) {
        String prefix = catalog.layout().stagingPrefix(restoreId);
        var staged = build(prefix, input, filter, KeyRange.ALL);
        writeSummary(prefix, staged);
        return staged;
    }

    /**
     * Builds one slice of the key-hash space of a delta under {@code prefix} (its data files, manifest
     * and skip keys, no summary): what a planner replica does for a part of a delta shared over the
     * fleet. Building it again overwrites the manifest and the skip keys.
     */
    public StagedDelta stagePart(String prefix, DeltaInput input, KeyRange range) {
        return build(prefix, input, input.filter(), range);
    }

    /**
     * Lays the parts of a delta, in part order, end to end as the restore's delta: one manifest of
     * every part's files, and the parts' skip keys in one file (each part's are sorted and the parts
     * follow one another in hash order, so the whole is sorted). Then the summary, last.
     */
    public StagedDelta merge(String restoreId, List<StagedDelta> parts) {
        String prefix = catalog.layout().stagingPrefix(restoreId);
        String bucket = catalog.layout().bucket();
        var out = new DataFiles(s3, bucket, prefix + "delta/", linesPerFile);
        long puts = 0;
        long deletes = 0;
        long read = 0;
        for (StagedDelta part : parts) {
            out.adopt(part.files());
            puts += part.puts();
            deletes += part.deletes();
            read = Math.max(read, part.changesRead()); // every part counts every change, read or not
        }
        putSkipKeys(prefix, skipOut -> {
            for (StagedDelta part : parts) {
                try (var in = s3.getObject(b -> b.bucket(part.bucket()).key(part.skipKeys()))) {
                    in.transferTo(skipOut);
                }
            }
        });
        out.writeManifest();
        var staged = new StagedDelta(bucket, prefix + SKIP_KEYS, puts, deletes, read, out.files());
        writeSummary(prefix, staged);
        return staged;
    }

    private void writeSummary(String prefix, StagedDelta staged) {
        s3.putObject(
                b -> b.bucket(catalog.layout().bucket()).key(prefix + SUMMARY).contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(staged)));
    }

    /** One pass over the changes of {@code input}: the keys in {@code range} that {@code filter} may want. */
    private StagedDelta build(String prefix, DeltaInput input, RecordFilter filter, KeyRange range) {
        String bucket = catalog.layout().bucket();
        var keyAttributes = input.keyAttributes();
        var out = new DataFiles(s3, bucket, prefix + "delta/", linesPerFile);
        long read;
        DeltaBuilder.Result[] result = new DeltaBuilder.Result[1];
        try (var builder = new DeltaBuilder(
                keyAttributes,
                input.fromMicros(),
                input.untilMicros(),
                DeltaBuilder.bitsFor(input.lines(), memoryBudgetBytes))) {
            KeyPrefilter.Test wanted = filter == null ? key -> true : filter::keyMayMatch;
            var prefilter = filter == null && range.parts() == 1
                    ? null
                    : KeyPrefilter.ofChanges(
                            keyAttributes,
                            key -> range.contains(KeyHash.of(key, keyAttributes)) && wanted.mayPass(key));
            read = new ChangeLogReader(s3, catalog).forEach(input.exports(), prefilter, range, change -> {
                // the prefilter passes what it cannot decide: the range is a rule, so it is checked again
                if (range.parts() == 1 || range.contains(KeyHash.of(change.keys(), keyAttributes))) {
                    builder.add(change);
                }
            });
            putSkipKeys(prefix, skipOut -> result[0] = builder.build(out, skipOut));
        }
        out.writeManifest();
        return new StagedDelta(bucket, prefix + SKIP_KEYS, result[0].puts(), result[0].deletes(), read, out.files());
    }

    /** Writes a skip-key file through local disk (its size is known before the upload) and puts it under {@code prefix}. */
    private void putSkipKeys(String prefix, SkipKeysWriter writer) {
        Path skip = null;
        try {
            skip = Files.createTempFile("skip-keys-", ".bin");
            try (var skipOut = Files.newOutputStream(skip)) {
                writer.write(skipOut);
            }
            var file = skip;
            s3.putObject(b -> b.bucket(catalog.layout().bucket()).key(prefix + SKIP_KEYS), RequestBody.fromFile(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (skip != null) {
                try {
                    Files.deleteIfExists(skip);
                } catch (IOException ignored) {
                    // a temporary file
                }
            }
        }
    }

    @FunctionalInterface
    private interface SkipKeysWriter {
        void write(OutputStream out) throws IOException;
    }

    /** The delta staged for a restore, if its staging completed. */
    public Optional<StagedDelta> find(String restoreId) {
        return catalog.read(
                catalog.layout().bucket(), catalog.layout().stagingPrefix(restoreId) + SUMMARY, StagedDelta.class);
    }

    /** Deletes what was staged for a restore (best effort: a lifecycle rule on {@code _staging/} is the backstop). */
    public void discard(String restoreId) {
        String prefix = catalog.layout().stagingPrefix(restoreId);
        String bucket = catalog.layout().bucket();
        for (var page : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))) {
            for (var object : page.contents()) {
                s3.deleteObject(b -> b.bucket(bucket).key(object.key()));
            }
        }
    }
}
