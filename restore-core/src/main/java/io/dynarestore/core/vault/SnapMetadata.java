package io.dynarestore.core.vault;

import io.dynarestore.core.codec.SdkJson;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.model.BackupDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import tools.jackson.databind.JsonNode;

/**
 * {@code snaps/<snapId>.json}: an AWS-native backup of a table (a Snap), by its ARN.
 * {@code backup} is the Snap as {@code aws dynamodb describe-backup} prints its
 * {@code BackupDescription}: the source table's keys, throughput, item count and size, indexes,
 * stream, TTL and encryption; absent for Snaps registered without it.
 */
public record SnapMetadata(String snapId, String backupArn, Instant takenAt, Instant expiresAt, JsonNode backup) {

    public SnapMetadata(String snapId, String backupArn, Instant takenAt, Instant expiresAt) {
        this(snapId, backupArn, takenAt, expiresAt, null);
    }

    public static SnapMetadata of(String snapId, Instant takenAt, Instant expiresAt, BackupDescription backup) {
        return new SnapMetadata(snapId, backup.backupDetails().backupArn(), takenAt, expiresAt, SdkJson.toJson(backup));
    }

    public boolean expiredAt(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** The Snap's description, or {@code null} when it was registered without one. */
    public BackupDescription description() {
        return backup == null ? null : SdkJson.fromJson(backup, BackupDescription.builder());
    }

    /**
     * The source table at Snap time as a table description (keys, billing, throughput, indexes,
     * stream, encryption), for the checks and settings that work on one; an empty description
     * when the Snap was registered without its {@code backup}.
     */
    public TableDescription sourceTable() {
        BackupDescription d = description();
        var t = TableDescription.builder();
        if (d == null) {
            return t.build();
        }
        var details = d.sourceTableDetails();
        if (details != null) {
            t.tableName(details.tableName())
                    .keySchema(details.keySchema())
                    .itemCount(details.itemCount())
                    .tableSizeBytes(details.tableSizeBytes())
                    .tableArn(details.tableArn());
            if (details.billingMode() != null) {
                t.billingModeSummary(b -> b.billingMode(details.billingMode()));
            }
            if (details.provisionedThroughput() != null) {
                t.provisionedThroughput(p -> p.readCapacityUnits(
                                details.provisionedThroughput().readCapacityUnits())
                        .writeCapacityUnits(details.provisionedThroughput().writeCapacityUnits()));
            }
        }
        var features = d.sourceTableFeatureDetails();
        if (features != null) {
            if (features.hasLocalSecondaryIndexes()) {
                t.localSecondaryIndexes(features.localSecondaryIndexes().stream()
                        .map(l -> LocalSecondaryIndexDescription.builder()
                                .indexName(l.indexName())
                                .keySchema(l.keySchema())
                                .projection(l.projection())
                                .build())
                        .toList());
            }
            if (features.hasGlobalSecondaryIndexes()) {
                t.globalSecondaryIndexes(features.globalSecondaryIndexes().stream()
                        .map(g -> GlobalSecondaryIndexDescription.builder()
                                .indexName(g.indexName())
                                .keySchema(g.keySchema())
                                .projection(g.projection())
                                .provisionedThroughput(p -> {
                                    if (g.provisionedThroughput() != null) {
                                        p.readCapacityUnits(g.provisionedThroughput()
                                                        .readCapacityUnits())
                                                .writeCapacityUnits(g.provisionedThroughput()
                                                        .writeCapacityUnits());
                                    }
                                })
                                .build())
                        .toList());
            }
            t.streamSpecification(features.streamDescription());
            t.sseDescription(features.sseDescription());
        }
        return t.build();
    }
}
