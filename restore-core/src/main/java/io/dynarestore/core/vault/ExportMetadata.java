package io.dynarestore.core.vault;

import java.time.Instant;

/**
 * {@code export.json}: an incremental export the vault offers for point-in-time restores.
 * {@code compacted} exports (native DynamoDB ones) hold only each key's last write in
 * [{@code from}, {@code to}), so they are exact only at {@code to}; exports the vault recorded
 * itself hold every write and are exact at every instant. {@code location} is set for exports
 * registered where they lie.
 */
public record ExportMetadata(int formatVersion, String exportId, String account, String region, String tableName,
                             Instant from, Instant to, boolean compacted, long itemCount, ExportLocation location) {

    public static final int FORMAT_VERSION = 1;
}
