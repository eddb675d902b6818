package io.dynarestore.core.vault;

import io.dynarestore.core.codec.SdkJson;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import tools.jackson.databind.JsonNode;

/**
 * {@code backup.json}: what the native export format lacks. The table description is stored in
 * the JSON shape of {@code aws dynamodb describe-table} ({@code table}), tags in the shape of
 * {@code list-tags-of-resource} ({@code tags}) and TTL in the shape of
 * {@code describe-time-to-live} ({@code timeToLive}), so a user can write one from the AWS CLI.
 * {@code writeUnits} is the sum over items of ceil(size / 1 KB): the WCU one write of each item
 * costs (absent for backups whose items were not sized); {@code indexWriteUnits} the same per
 * local secondary index, over the items it projects (those with the index's sort key).
 * {@code continuousBackups} is the table's PITR setting in the shape of
 * {@code describe-continuous-backups} (absent when the endpoint could not say). {@code location}
 * is set for a native full export registered where it lies: its manifests and data files are
 * read from there. {@code attributeTypes} lists every attribute name of the items with its types
 * (absent where not all are known: a native export, a backup resumed from an earlier attempt, or more
 * than {@value #MAX_ATTRIBUTE_TYPES} name-type pairs), so that a whole CSV export knows its header
 * before reading.
 */
public record BackupMetadata(
        int formatVersion,
        String backupId,
        Instant takenAt,
        Instant expiresAt,
        String account,
        String region,
        String tableName,
        JsonNode table,
        List<JsonNode> tags,
        JsonNode timeToLive,
        Long writeUnits,
        ExportLocation location,
        Map<String, Long> indexWriteUnits,
        JsonNode continuousBackups,
        Instant consistentAt,
        Map<String, List<String>> attributeTypes) {

    public static final int FORMAT_VERSION = 1;

    /** The most attribute name-type pairs {@code attributeTypes} lists; a wider backup has none. */
    public static final int MAX_ATTRIBUTE_TYPES = 10_000;

    public static BackupMetadata of(
            String backupId,
            Instant takenAt,
            Instant expiresAt,
            String account,
            String region,
            TableDescription table,
            List<Tag> tags,
            TimeToLiveDescription ttl,
            Long writeUnits) {
        return of(backupId, takenAt, expiresAt, account, region, table, tags, ttl, null, writeUnits, null);
    }

    public static BackupMetadata of(
            String backupId,
            Instant takenAt,
            Instant expiresAt,
            String account,
            String region,
            TableDescription table,
            List<Tag> tags,
            TimeToLiveDescription ttl,
            ContinuousBackupsDescription continuous,
            Long writeUnits,
            Map<String, Long> indexWriteUnits) {
        return new BackupMetadata(
                FORMAT_VERSION,
                backupId,
                takenAt,
                expiresAt,
                account,
                region,
                table.tableName(),
                SdkJson.toJson(table),
                tags == null
                        ? List.of()
                        : tags.stream().map(t -> (JsonNode) SdkJson.toJson(t)).toList(),
                ttl == null ? null : SdkJson.toJson(ttl),
                writeUnits,
                null,
                indexWriteUnits == null || indexWriteUnits.isEmpty() ? null : Map.copyOf(indexWriteUnits),
                continuous == null ? null : SdkJson.toJson(continuous),
                null,
                null);
    }

    /**
     * This metadata for a backup that is exact only from {@code at} on: a Scan read while writes went
     * on, so a key written during it may hold a later version than the scan's start (ADR 0022).
     */
    public BackupMetadata consistentFrom(Instant at) {
        return new BackupMetadata(
                formatVersion,
                backupId,
                takenAt,
                expiresAt,
                account,
                region,
                tableName,
                table,
                tags,
                timeToLive,
                writeUnits,
                location,
                indexWriteUnits,
                continuousBackups,
                at,
                attributeTypes);
    }

    /** This metadata for a native export registered at {@code where}. */
    public BackupMetadata at(ExportLocation where) {
        return new BackupMetadata(
                formatVersion,
                backupId,
                takenAt,
                expiresAt,
                account,
                region,
                tableName,
                table,
                tags,
                timeToLive,
                writeUnits,
                where,
                indexWriteUnits,
                continuousBackups,
                consistentAt,
                attributeTypes);
    }

    /**
     * This metadata with every attribute name of the backup's items and the types it has (as
     * {@code ConsoleCsv.typeOf} names them), or {@code null} when they are not all known: a whole
     * CSV export then knows its header before it reads the items (issue #22).
     */
    public BackupMetadata withAttributeTypes(Map<String, List<String>> types) {
        return new BackupMetadata(
                formatVersion,
                backupId,
                takenAt,
                expiresAt,
                account,
                region,
                tableName,
                table,
                tags,
                timeToLive,
                writeUnits,
                location,
                indexWriteUnits,
                continuousBackups,
                consistentAt,
                types);
    }

    public TableDescription tableDescription() {
        return SdkJson.fromJson(table, TableDescription.builder());
    }

    public List<Tag> tableTags() {
        return tags == null
                ? List.of()
                : tags.stream().map(t -> SdkJson.fromJson(t, Tag.builder())).toList();
    }

    public TimeToLiveDescription ttl() {
        return timeToLive == null ? null : SdkJson.fromJson(timeToLive, TimeToLiveDescription.builder());
    }

    public ContinuousBackupsDescription continuous() {
        return continuousBackups == null
                ? null
                : SdkJson.fromJson(continuousBackups, ContinuousBackupsDescription.builder());
    }

    public boolean expiredAt(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }
}
