package io.dynarestore.core.vault;

import java.time.Instant;

/**
 * {@code export.json}: an incremental export the vault offers for point-in-time restores.
 * {@code compacted} exports (native DynamoDB ones) hold only each key's last write in
 * [{@code from}, {@code to}), so they are exact only at {@code to}; exports the vault recorded
 * itself hold every write and are exact at every instant. {@code location} is set for exports
 * registered where they lie. {@code shardGroup} is set when the export holds only one shard group's
 * keys (null: every key).
 */
public record ExportMetadata(
        int formatVersion,
        String exportId,
        String account,
        String region,
        String tableName,
        Instant from,
        Instant to,
        boolean compacted,
        long itemCount,
        ExportLocation location,
        ShardGroup shardGroup) {

    public static final int FORMAT_VERSION = 1;

    /** An export of every key of the table (every export but a shard group's). */
    public ExportMetadata(
            int formatVersion,
            String exportId,
            String account,
            String region,
            String tableName,
            Instant from,
            Instant to,
            boolean compacted,
            long itemCount,
            ExportLocation location) {
        this(formatVersion, exportId, account, region, tableName, from, to, compacted, itemCount, location, null);
    }

    /**
     * The part of a table's keys one stream capture records (ADR 0025): the writes of the shard lineages
     * of group {@code index} of {@code of}. The groups of one {@code of} partition the keys, since a key
     * stays in one lineage; so the table is known at an instant when every group of one {@code of} is.
     */
    public record ShardGroup(int index, int of) {
        public ShardGroup {
            if (of < 1 || index < 0 || index >= of) {
                throw new IllegalArgumentException("shard group " + index + " of " + of + ": need 0 <= index < of");
            }
        }
    }
}
