package io.dynarestore.planner.destination;

import io.dynarestore.contracts.request.Destination.TableOptions;
import io.dynarestore.core.filter.KeySchema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ImportTableRequest;
import software.amazon.awssdk.services.dynamodb.model.InputCompressionType;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.RestoreTableFromBackupRequest;
import software.amazon.awssdk.services.dynamodb.model.SSESpecification;
import software.amazon.awssdk.services.dynamodb.model.TableCreationParameters;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Turns a table description taken at backup time, and the settings of the restored table, into
 * the requests that create it: key schema, the attribute definitions its keys use, indexes,
 * billing mode and throughput, encryption, stream, table class, deletion protection and tags.
 */
public final class TableSpecs {

    private TableSpecs() {}

    /** The CreateTable request of a table like {@code d}, named {@code tableName}, with {@code settings}. */
    public static CreateTableRequest createRequest(TableDescription d, String tableName, TableSettings settings) {
        return createRequest(d, tableName, settings, null);
    }

    /**
     * The CreateTable request of a table like {@code d}, on demand made able to take
     * {@code warmWrites} writes a second at once ({@code null}: DynamoDB's default).
     */
    public static CreateTableRequest createRequest(
            TableDescription d, String tableName, TableSettings settings, Long warmWrites) {
        var request = CreateTableRequest.builder().tableName(tableName).keySchema(d.keySchema());
        Set<String> used = new LinkedHashSet<>(KeySchema.attributeNames(d.keySchema()));
        List<GlobalSecondaryIndex> gsis = gsis(d, settings, used);
        if (!gsis.isEmpty()) {
            request.globalSecondaryIndexes(gsis);
        }
        if (settings.includeLsis()
                && d.hasLocalSecondaryIndexes()
                && !d.localSecondaryIndexes().isEmpty()) {
            var lsis = new ArrayList<LocalSecondaryIndex>();
            for (LocalSecondaryIndexDescription l : d.localSecondaryIndexes()) {
                lsis.add(LocalSecondaryIndex.builder()
                        .indexName(l.indexName())
                        .keySchema(l.keySchema())
                        .projection(l.projection())
                        .build());
                used.addAll(KeySchema.attributeNames(l.keySchema()));
            }
            request.localSecondaryIndexes(lsis);
        }
        request.attributeDefinitions(definitions(d, used));
        if (settings.onDemand()) {
            request.billingMode(BillingMode.PAY_PER_REQUEST);
            if (TableSettings.isOnDemand(d) && d.onDemandThroughput() != null) {
                request.onDemandThroughput(d.onDemandThroughput());
            }
            if (warmWrites != null) {
                request.warmThroughput(w -> w.writeUnitsPerSecond(warmWrites));
            }
        } else {
            request.billingMode(BillingMode.PROVISIONED).provisionedThroughput(tableThroughput(d, settings));
        }
        if (settings.sseSpecification() != null) {
            request.sseSpecification(settings.sseSpecification());
        }
        if (settings.streamSpecification() != null) {
            request.streamSpecification(settings.streamSpecification());
        }
        if (settings.tableClass() != null) {
            request.tableClass(settings.tableClass());
        }
        if (settings.deletionProtection()) {
            request.deletionProtectionEnabled(true);
        }
        if (!settings.tags().isEmpty()) {
            request.tags(settings.tags());
        }
        return request.build();
    }

    /**
     * The table of an ImportTable request: what ImportTable can set at creation (keys, GSIs,
     * billing, encryption). Tags, streams, TTL, PITR, table class and deletion protection are
     * set after the import ({@link TableFinisher}). ImportTable cannot create LSIs.
     */
    public static TableCreationParameters importParameters(
            TableDescription d, String tableName, TableSettings settings) {
        var params = TableCreationParameters.builder().tableName(tableName).keySchema(d.keySchema());
        Set<String> used = new LinkedHashSet<>(KeySchema.attributeNames(d.keySchema()));
        List<GlobalSecondaryIndex> gsis = gsis(d, settings, used);
        if (!gsis.isEmpty()) {
            params.globalSecondaryIndexes(gsis);
        }
        params.attributeDefinitions(definitions(d, used));
        if (settings.onDemand()) {
            params.billingMode(BillingMode.PAY_PER_REQUEST);
            if (TableSettings.isOnDemand(d) && d.onDemandThroughput() != null) {
                params.onDemandThroughput(d.onDemandThroughput());
            }
        } else {
            params.billingMode(BillingMode.PROVISIONED).provisionedThroughput(tableThroughput(d, settings));
        }
        if (settings.sseSpecification() != null) {
            params.sseSpecification(settings.sseSpecification());
        }
        return params.build();
    }

    /**
     * The ImportTable request that creates {@code table} from the gzip DYNAMODB_JSON files under
     * {@code s3://bucket/prefix}. {@code clientToken} makes a repeated call (after a crash) return
     * the same import instead of starting another; {@code bucketOwner} is the vault's account
     * when it differs from the destination's.
     */
    public static ImportTableRequest importRequest(
            String clientToken, String bucket, String prefix, String bucketOwner, TableCreationParameters table) {
        return ImportTableRequest.builder()
                .clientToken(clientToken)
                .s3BucketSource(s -> s.s3Bucket(bucket).s3KeyPrefix(prefix).s3BucketOwner(bucketOwner))
                .inputFormat(InputFormat.DYNAMODB_JSON)
                .inputCompressionType(InputCompressionType.GZIP)
                .tableCreationParameters(table)
                .build();
    }

    /**
     * The RestoreTableFromBackup request of a Snap: the table comes back as it was at Snap time,
     * with only what the request's options change overridden (indexes left out, billing and
     * throughput, encryption). Tags, stream, TTL, PITR, table class and deletion protection are
     * not restored by DynamoDB and are set afterwards ({@link TableFinisher}).
     *
     * @param source the Snap's table (its indexes and throughput)
     */
    public static RestoreTableFromBackupRequest snapRequest(
            String backupArn, TableDescription source, String tableName, TableOptions options, TableSettings settings) {
        var request =
                RestoreTableFromBackupRequest.builder().backupArn(backupArn).targetTableName(tableName);
        boolean billingChanged = options != null && options.billing() != null;
        if (source.hasGlobalSecondaryIndexes()
                && !source.globalSecondaryIndexes().isEmpty()) {
            if (!settings.includeGsis()) {
                request.globalSecondaryIndexOverride(List.of());
            } else if (billingChanged) {
                request.globalSecondaryIndexOverride(gsis(source, settings, new LinkedHashSet<>()));
            }
        }
        if (source.hasLocalSecondaryIndexes() && !source.localSecondaryIndexes().isEmpty() && !settings.includeLsis()) {
            request.localSecondaryIndexOverride(List.of());
        }
        if (billingChanged) {
            request.billingModeOverride(settings.onDemand() ? BillingMode.PAY_PER_REQUEST : BillingMode.PROVISIONED);
            if (!settings.onDemand()) {
                request.provisionedThroughputOverride(tableThroughput(source, settings));
            }
        }
        if (options != null && options.encryption() != null) {
            request.sseSpecificationOverride(
                    settings.encryption() == null
                            ? SSESpecification.builder().enabled(false).build()
                            : settings.sseSpecification());
        }
        return request.build();
    }

    private static List<GlobalSecondaryIndex> gsis(TableDescription d, TableSettings settings, Set<String> used) {
        var gsis = new ArrayList<GlobalSecondaryIndex>();
        if (!settings.includeGsis() || !d.hasGlobalSecondaryIndexes()) {
            return gsis;
        }
        for (GlobalSecondaryIndexDescription g : d.globalSecondaryIndexes()) {
            var b = GlobalSecondaryIndex.builder()
                    .indexName(g.indexName())
                    .keySchema(g.keySchema())
                    .projection(g.projection());
            if (!settings.onDemand()) {
                // a provisioned backup's indexes keep their throughput; an on-demand one's get the table's
                b.provisionedThroughput(
                        TableSettings.isOnDemand(d)
                                ? tableThroughput(d, settings)
                                : throughput(g.provisionedThroughput()));
            } else if (TableSettings.isOnDemand(d) && g.onDemandThroughput() != null) {
                b.onDemandThroughput(g.onDemandThroughput());
            }
            gsis.add(b.build());
            used.addAll(KeySchema.attributeNames(g.keySchema()));
        }
        return gsis;
    }

    /** DynamoDB rejects attribute definitions that no key of the table or its indexes uses. */
    private static List<AttributeDefinition> definitions(TableDescription d, Set<String> used) {
        return d.attributeDefinitions().stream()
                .filter(a -> used.contains(a.attributeName()))
                .toList();
    }

    /** The restored table's provisioned throughput: the requested one, else the backup's. */
    public static ProvisionedThroughput tableThroughput(TableDescription d, TableSettings settings) {
        if (settings.readUnits() != null && settings.writeUnits() != null) {
            return ProvisionedThroughput.builder()
                    .readCapacityUnits(settings.readUnits())
                    .writeCapacityUnits(settings.writeUnits())
                    .build();
        }
        return throughput(d.provisionedThroughput());
    }

    private static ProvisionedThroughput throughput(ProvisionedThroughputDescription p) {
        long read = p == null || p.readCapacityUnits() == null || p.readCapacityUnits() < 1 ? 1 : p.readCapacityUnits();
        long write =
                p == null || p.writeCapacityUnits() == null || p.writeCapacityUnits() < 1 ? 1 : p.writeCapacityUnits();
        return ProvisionedThroughput.builder()
                .readCapacityUnits(read)
                .writeCapacityUnits(write)
                .build();
    }
}
