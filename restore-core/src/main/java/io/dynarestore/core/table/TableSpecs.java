package io.dynarestore.core.table;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.SSESpecification;
import software.amazon.awssdk.services.dynamodb.model.SSEStatus;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * Turns a table description taken at backup time into the request that creates the same table:
 * key schema, the attribute definitions its keys use, indexes, billing mode and throughput,
 * encryption, stream and table class.
 */
public final class TableSpecs {

    private TableSpecs() {
    }

    /** The key attribute names of a table, partition key first. */
    public static List<String> keyAttributes(List<KeySchemaElement> keySchema) {
        var names = new ArrayList<String>(2);
        keySchema.stream().filter(k -> k.keyType() == KeyType.HASH).forEach(k -> names.add(k.attributeName()));
        keySchema.stream().filter(k -> k.keyType() == KeyType.RANGE).forEach(k -> names.add(k.attributeName()));
        return names;
    }

    public static boolean isOnDemand(TableDescription d) {
        return d.billingModeSummary() != null && d.billingModeSummary().billingMode() == BillingMode.PAY_PER_REQUEST;
    }

    public static CreateTableRequest createRequest(TableDescription d, String tableName, boolean includeGsis,
                                                   boolean includeLsis, List<Tag> tags) {
        boolean onDemand = isOnDemand(d);
        var request = CreateTableRequest.builder().tableName(tableName).keySchema(d.keySchema());
        Set<String> used = new LinkedHashSet<>(keyAttributes(d.keySchema()));

        if (includeGsis && d.hasGlobalSecondaryIndexes() && !d.globalSecondaryIndexes().isEmpty()) {
            var gsis = new ArrayList<GlobalSecondaryIndex>();
            for (GlobalSecondaryIndexDescription g : d.globalSecondaryIndexes()) {
                var b = GlobalSecondaryIndex.builder().indexName(g.indexName()).keySchema(g.keySchema())
                        .projection(g.projection());
                if (!onDemand) {
                    b.provisionedThroughput(throughput(g.provisionedThroughput()));
                } else if (g.onDemandThroughput() != null) {
                    b.onDemandThroughput(g.onDemandThroughput());
                }
                gsis.add(b.build());
                used.addAll(keyAttributes(g.keySchema()));
            }
            request.globalSecondaryIndexes(gsis);
        }
        if (includeLsis && d.hasLocalSecondaryIndexes() && !d.localSecondaryIndexes().isEmpty()) {
            var lsis = new ArrayList<LocalSecondaryIndex>();
            for (LocalSecondaryIndexDescription l : d.localSecondaryIndexes()) {
                lsis.add(LocalSecondaryIndex.builder().indexName(l.indexName()).keySchema(l.keySchema())
                        .projection(l.projection()).build());
                used.addAll(keyAttributes(l.keySchema()));
            }
            request.localSecondaryIndexes(lsis);
        }
        // DynamoDB rejects attribute definitions that no key of the table or its indexes uses
        List<AttributeDefinition> definitions = d.attributeDefinitions().stream()
                .filter(a -> used.contains(a.attributeName())).toList();
        request.attributeDefinitions(definitions);

        if (onDemand) {
            request.billingMode(BillingMode.PAY_PER_REQUEST);
            if (d.onDemandThroughput() != null) {
                request.onDemandThroughput(d.onDemandThroughput());
            }
        } else {
            request.billingMode(BillingMode.PROVISIONED).provisionedThroughput(throughput(d.provisionedThroughput()));
        }
        if (d.sseDescription() != null && d.sseDescription().status() == SSEStatus.ENABLED) {
            var sse = SSESpecification.builder().enabled(true).sseType(d.sseDescription().sseType());
            if (d.sseDescription().kmsMasterKeyArn() != null) {
                sse.kmsMasterKeyId(d.sseDescription().kmsMasterKeyArn());
            }
            request.sseSpecification(sse.build());
        }
        if (d.streamSpecification() != null && Boolean.TRUE.equals(d.streamSpecification().streamEnabled())) {
            request.streamSpecification(d.streamSpecification());
        }
        if (d.tableClassSummary() != null && d.tableClassSummary().tableClass() != null) {
            request.tableClass(d.tableClassSummary().tableClass());
        }
        if (Boolean.TRUE.equals(d.deletionProtectionEnabled())) {
            request.deletionProtectionEnabled(true);
        }
        if (tags != null && !tags.isEmpty()) {
            request.tags(tags);
        }
        return request.build();
    }

    private static ProvisionedThroughput throughput(ProvisionedThroughputDescription p) {
        long read = p == null || p.readCapacityUnits() == null || p.readCapacityUnits() < 1 ? 1 : p.readCapacityUnits();
        long write = p == null || p.writeCapacityUnits() == null || p.writeCapacityUnits() < 1 ? 1 : p.writeCapacityUnits();
        return ProvisionedThroughput.builder().readCapacityUnits(read).writeCapacityUnits(write).build();
    }
}
