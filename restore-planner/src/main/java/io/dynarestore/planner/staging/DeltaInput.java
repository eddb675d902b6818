package io.dynarestore.planner.staging;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.ExportMetadata;
import java.util.List;

/**
 * What a delta is built from: the changes of {@code exports} written in [{@code fromMicros},
 * {@code untilMicros}), {@code lines} of them in all (which sizes the buckets), keyed by
 * {@code keyAttributes}. A record restore's {@code records} and the table's {@code key} tell which keys
 * may be wanted; both are absent for a whole table. Staged as JSON for the replicas that build the
 * parts of a shared delta.
 */
public record DeltaInput(
        long fromMicros,
        long untilMicros,
        long lines,
        List<String> keyAttributes,
        KeySchema key,
        Scope.Records records,
        List<ExportMetadata> exports) {

    public DeltaInput {
        keyAttributes = List.copyOf(keyAttributes);
        exports = List.copyOf(exports);
        if ((records == null) != (key == null)) {
            throw new IllegalArgumentException("a record restore's delta needs both its records and the table's key");
        }
    }

    /** The delta from the base of {@code resolution} up to the end of its second, of every key. */
    public static DeltaInput of(PitrCoverage.Resolution resolution, List<String> keyAttributes) {
        return of(resolution, keyAttributes, null, null);
    }

    public static DeltaInput of(
            PitrCoverage.Resolution resolution, List<String> keyAttributes, KeySchema key, Scope.Records records) {
        return new DeltaInput(
                PitrCoverage.micros(resolution.base().takenAt()),
                PitrCoverage.micros(resolution.pointInTime()) + 1_000_000L,
                resolution.exports().stream()
                        .mapToLong(ExportMetadata::itemCount)
                        .sum(),
                keyAttributes,
                key,
                records,
                resolution.exports());
    }

    /** The keys a record restore may want, or {@code null} for all. */
    public RecordFilter filter() {
        return records == null ? null : RecordFilter.compile(records, key);
    }
}
