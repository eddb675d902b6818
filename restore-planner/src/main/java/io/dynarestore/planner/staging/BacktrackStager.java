package io.dynarestore.planner.staging;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.pitr.BacktrackBuilder;
import io.dynarestore.core.pitr.DeltaBuilder;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Stages the reverts of a backtrack to second T (ADR 0031): for every key written after T up to
 * the end E of the change log, its image at T (the old image of its first write after T), read from
 * the change log alone. They are staged as a delta ({@code delta/} and {@code delta.json}, in
 * {@link DeltaStager}'s format, with no skip set: there is no base to skip in), so that writers
 * apply them as they apply a delta, with deletes. {@code backtrack.json} adds what only a backtrack
 * knows: E and the changes read. Staging again overwrites the same keys.
 */
public final class BacktrackStager {

    public static final String SUMMARY = "backtrack.json";

    private final S3Client s3;
    private final VaultCatalog catalog;
    private final long memoryBudgetBytes;
    private final int linesPerFile;

    public BacktrackStager(S3Client s3, VaultCatalog catalog, long memoryBudgetBytes, int linesPerFile) {
        this.s3 = s3;
        this.catalog = catalog;
        this.memoryBudgetBytes = memoryBudgetBytes;
        this.linesPerFile = linesPerFile;
    }

    /**
     * What was staged for a backtrack.
     *
     * @param logEnd      the end E of the change log: writes after it were not in the log and are left as they are
     * @param changesRead change lines read
     * @param reverts     keys written after T, each reverted to its image at T
     * @param deletes     of those, keys that did not exist at T
     */
    public record StagedBacktrack(
            Instant pointInTime, Instant logEnd, long changesRead, long reverts, long deletes, int files) {}

    public StagedBacktrack stage(String restoreId, PitrCoverage.ChangeLog log, List<String> keyAttributes) {
        long from = PitrCoverage.micros(log.after()) + 1_000_000L;
        String prefix = catalog.layout().stagingPrefix(restoreId);
        String bucket = catalog.layout().bucket();
        var out = new DataFiles(s3, bucket, prefix + "delta/", linesPerFile);
        long read;
        BacktrackBuilder.Result result;
        try (var builder = new BacktrackBuilder(
                        keyAttributes, from, Long.MAX_VALUE, DeltaBuilder.bitsFor(log.lines(), memoryBudgetBytes));
                var part = out.openPart()) {
            read = new ChangeLogReader(s3, catalog).forEach(log.exports(), builder::add);
            result = builder.build((hash, revert) -> part.write(revert.line()::write));
        }
        out.writeManifest();
        var delta = new DeltaStager.StagedDelta(
                bucket, null, result.reverts() - result.deletes(), result.deletes(), read, out.files());
        var staged = new StagedBacktrack(
                log.after(),
                log.end(),
                read,
                result.reverts(),
                result.deletes(),
                out.files().size());
        out.put(prefix + SUMMARY, Json.toBytes(staged), "application/json");
        out.put(prefix + DeltaStager.SUMMARY, Json.toBytes(delta), "application/json");
        return staged;
    }

    /** The backtrack staged for a restore, if its staging completed. */
    public Optional<StagedBacktrack> find(String restoreId) {
        return catalog.read(
                catalog.layout().bucket(), catalog.layout().stagingPrefix(restoreId) + SUMMARY, StagedBacktrack.class);
    }
}
