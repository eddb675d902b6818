package io.dynarestore.planner.staging;

import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.ManifestFile;
import java.util.List;

/**
 * What the sweep of a full in-place restore compares: the keys of the table {@code table} (in
 * {@code account}, {@code region}) against the restored image, the base backup's items
 * ({@code baseFiles} in {@code baseBucket}) overridden by a point-in-time delta's puts and deletes
 * ({@code deltaFiles} in {@code deltaBucket}; none for a backup). {@code imageKeys} is the image's
 * size (base items plus delta keys), which decides whether the sweep is shared. Staged as JSON for
 * the replicas that build the parts of a shared sweep.
 */
public record SweepInput(
        String account,
        String region,
        String table,
        List<String> keyAttributes,
        String baseBucket,
        List<ManifestFile> baseFiles,
        String deltaBucket,
        List<ManifestFile> deltaFiles,
        long imageKeys) {

    public SweepInput {
        keyAttributes = List.copyOf(keyAttributes);
        baseFiles = List.copyOf(baseFiles);
        deltaFiles = deltaFiles == null ? List.of() : List.copyOf(deltaFiles);
    }

    /** The sweep of {@code table} against {@code base} and, for a point in time, {@code delta} (else {@code null}). */
    public static SweepInput of(
            String account,
            String region,
            String table,
            List<String> keyAttributes,
            Backup base,
            DeltaStager.StagedDelta delta) {
        return new SweepInput(
                account,
                region,
                table,
                keyAttributes,
                base.dataBucket(),
                base.files(),
                delta == null ? null : delta.bucket(),
                delta == null ? List.of() : delta.files(),
                base.itemCount() + (delta == null ? 0 : delta.keys()));
    }
}
