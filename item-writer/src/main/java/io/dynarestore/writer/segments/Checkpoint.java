package io.dynarestore.writer.segments;

import io.dynarestore.contracts.Json;
import java.nio.charset.StandardCharsets;

/**
 * How far a segment got: its first {@code lines} lines are in the destination, with these counts.
 * Kept as the metadata of the segment's committed offset (the offset itself stays at the
 * segment), so whoever owns the partition next reads it with the offset and resumes after those
 * lines; the same figures go out in SegmentProgressed for dashboards. The checksums of the lines
 * so far go with it, so that a resumed segment's verification covers all of its lines.
 */
record Checkpoint(
        String restoreId,
        int segment,
        long lines,
        long written,
        long overwritten,
        long unchanged,
        long deleted,
        long skipped,
        long bytes,
        long wcu,
        Long sourceChecksum,
        Long appliedChecksum,
        Long conflicts) {

    String toJson() {
        return new String(Json.toBytes(this), StandardCharsets.UTF_8);
    }

    /** The checkpoint in {@code metadata} if it is one of this segment, else {@code null}. */
    static Checkpoint of(String metadata, String restoreId, int segment) {
        if (metadata == null || metadata.isBlank()) {
            return null;
        }
        try {
            Checkpoint c = Json.mapper().readValue(metadata, Checkpoint.class);
            return restoreId.equals(c.restoreId()) && c.segment() == segment && c.lines() > 0 ? c : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
