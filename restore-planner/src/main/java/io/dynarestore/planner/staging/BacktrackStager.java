package io.dynarestore.planner.staging;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.pitr.BacktrackBuilder;
import io.dynarestore.core.pitr.DeltaBuilder;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Stages the reverts of a backtrack to second T (ADR 0031): for every key written after T up to
 * the end E of the change log, its image at T (the old image of its first write after T), read from
 * the change log alone; or those of the undo of a window (T, until], with its conflicts. They are staged as a delta ({@code delta/} and {@code delta.json}, in
 * {@link DeltaStager}'s format, with no skip set: there is no base to skip in), so that writers
 * apply them as they apply a delta, with deletes. {@code backtrack.json} adds what only a backtrack
 * knows: E and the changes read. Staging again overwrites the same keys.
 */
public final class BacktrackStager {

    public static final String SUMMARY = "backtrack.json";

    /** How many segments a backtrack of at least {@link #MIN_LINES} × 16 reverts is cut into, so that writers share it. */
    static final int MIN_SEGMENTS = 16;
    /** The fewest lines per staged file: a small backtrack is one segment, not 16 of a few lines each. */
    static final int MIN_LINES = 250;

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
     * What was staged for a backtrack, or for the undo of a window.
     *
     * @param pointInTime the second the keys go back to
     * @param until       the window's last second (an undo), or {@code null} (a backtrack)
     * @param logEnd      the end E of the change log: writes after it were not in the log and are left as they are
     * @param changesRead change lines read
     * @param reverts     keys staged, each back to its image at {@code pointInTime}
     * @param deletes     of those, keys that did not exist then
     * @param conflicts   keys written in the window and again after it (staged only with OVERWRITE)
     * @param samples     a few of the conflicts, with both their images
     */
    public record StagedBacktrack(
            Instant pointInTime,
            Instant until,
            Instant logEnd,
            long changesRead,
            long reverts,
            long deletes,
            long conflicts,
            List<RestorePlanned.Conflict> samples,
            int files) {}

    /** Stages a backtrack to the log's second: every key written since goes back. */
    public StagedBacktrack stage(String restoreId, PitrCoverage.ChangeLog log, List<String> keyAttributes) {
        return stage(restoreId, log, keyAttributes, null, false);
    }

    /**
     * Stages the undo of the window (log's second, {@code until}]; {@code until} {@code null} is a
     * backtrack. Conflicts are staged only when {@code overwrite}.
     */
    public StagedBacktrack stage(
            String restoreId,
            PitrCoverage.ChangeLog log,
            List<String> keyAttributes,
            Instant until,
            boolean overwrite) {
        long from = PitrCoverage.micros(log.after()) + 1_000_000L;
        long untilMicros = until == null ? Long.MAX_VALUE : PitrCoverage.micros(until) + 1_000_000L;
        String prefix = catalog.layout().stagingPrefix(restoreId);
        String bucket = catalog.layout().bucket();
        var out = new DataFiles(s3, bucket, prefix + "delta/", linesPerFile(log.lines()));
        long[] counts = new long[3];
        var samples = new ArrayList<RestorePlanned.Conflict>();
        long read;
        try (var builder = new BacktrackBuilder(
                        keyAttributes, from, untilMicros, DeltaBuilder.bitsFor(log.lines(), memoryBudgetBytes));
                var part = out.openPart()) {
            read = new ChangeLogReader(s3, catalog).forEach(log.exports(), builder::add);
            builder.build((hash, revert) -> {
                if (revert.conflict()) {
                    counts[2]++;
                    if (samples.size() < RestorePlanned.Conflicts.MAX_SAMPLES) {
                        samples.add(new RestorePlanned.Conflict(
                                DynamoJson.toJson(revert.keys()), json(revert.before()), json(revert.latest())));
                    }
                    if (!overwrite) {
                        return;
                    }
                }
                counts[0]++;
                counts[1] += revert.deletes() ? 1 : 0;
                part.write(revert.line()::write);
            });
        }
        out.writeManifest();
        var delta = new DeltaStager.StagedDelta(bucket, null, counts[0] - counts[1], counts[1], read, out.files());
        var staged = new StagedBacktrack(
                log.after(),
                until,
                log.end(),
                read,
                counts[0],
                counts[1],
                counts[2],
                List.copyOf(samples),
                out.files().size());
        out.put(prefix + SUMMARY, Json.toBytes(staged), "application/json");
        out.put(prefix + DeltaStager.SUMMARY, Json.toBytes(delta), "application/json");
        return staged;
    }

    /**
     * Lines per staged file: a backtrack's reverts are few, so they are cut into up to
     * {@value #MIN_SEGMENTS} segments that writers take in parallel, of at least {@value #MIN_LINES}
     * lines each (a segment costs a message, an S3 object and a completion), and never more lines
     * per file than the delta's.
     */
    int linesPerFile(long changes) {
        long perSegment = Math.max(MIN_LINES, (changes + MIN_SEGMENTS - 1) / MIN_SEGMENTS);
        return (int) Math.max(1, Math.min(linesPerFile, perSegment));
    }

    private static String json(Map<String, AttributeValue> image) {
        return image == null ? null : DynamoJson.toJson(image);
    }

    /** The backtrack staged for a restore, if its staging completed. */
    public Optional<StagedBacktrack> find(String restoreId) {
        return catalog.read(
                catalog.layout().bucket(), catalog.layout().stagingPrefix(restoreId) + SUMMARY, StagedBacktrack.class);
    }
}
