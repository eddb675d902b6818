package io.dynarestore.planner.staging;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.DeltaBuilder;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import java.io.IOException;
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
        long from = PitrCoverage.micros(resolution.base().takenAt());
        long until = PitrCoverage.micros(resolution.pointInTime()) + 1_000_000L;
        long lines = resolution.exports().stream()
                .mapToLong(ExportMetadata::itemCount)
                .sum();
        String prefix = catalog.layout().stagingPrefix(restoreId);
        String bucket = catalog.layout().bucket();
        var out = new DataFiles(s3, bucket, prefix + "delta/", linesPerFile);
        long read;
        DeltaBuilder.Result result;
        Path skip = null;
        try (var builder =
                new DeltaBuilder(keyAttributes, from, until, DeltaBuilder.bitsFor(lines, memoryBudgetBytes))) {
            var prefilter = filter == null ? null : KeyPrefilter.ofChanges(keyAttributes, filter::keyMayMatch);
            read = new ChangeLogReader(s3, catalog).forEach(resolution.exports(), prefilter, builder::add);
            skip = Files.createTempFile("skip-keys-", ".bin");
            try (var skipOut = Files.newOutputStream(skip)) {
                result = builder.build(out, skipOut);
            }
            s3.putObject(b -> b.bucket(bucket).key(prefix + SKIP_KEYS), RequestBody.fromFile(skip));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (skip != null) {
                try {
                    Files.deleteIfExists(skip);
                } catch (IOException ignored) {
                    // temporary file
                }
            }
        }
        out.writeManifest();
        var staged = new StagedDelta(bucket, prefix + SKIP_KEYS, result.puts(), result.deletes(), read, out.files());
        out.put(prefix + SUMMARY, Json.toBytes(staged), "application/json");
        return staged;
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
