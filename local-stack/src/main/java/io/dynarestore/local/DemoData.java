package io.dynarestore.local;

import io.dynarestore.core.vault.BackupTaker;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The demo: a table {@code orders} (customerId + orderId, a GSI by status, an LSI by total) of
 * 2,000 orders with values of every type, and three backups in the vault: one expired, one from
 * yesterday, one from two hours ago (after some orders changed and some were deleted).
 */
final class DemoData {

    static final String TABLE = "orders";
    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    private static final String[] STATUSES = {"PLACED", "SHIPPED", "DELIVERED", "FAILED"};

    private DemoData() {
    }

    /** Seeds the demo unless the vault already has backups of it; returns the backup ids. */
    static List<String> seed(DynamoDbClient dynamo, S3Client s3, VaultLayout layout) {
        var catalog = new VaultCatalog(s3, layout);
        if (!catalog.listBackups(ACCOUNT, REGION, TABLE).isEmpty()) {
            return catalog.listBackups(ACCOUNT, REGION, TABLE).stream().map(VaultCatalog.BackupSummary::backupId)
                    .toList();
        }
        createTable(dynamo);
        Random random = new Random(20261130);
        var items = new ArrayList<Map<String, AttributeValue>>();
        for (int i = 0; i < 2_000; i++) {
            items.add(order(random, i));
        }
        put(dynamo, items);
        var taker = new BackupTaker(dynamo, s3, layout);
        Instant now = Instant.now();
        var settings = BackupTaker.Settings.defaults().withItemsPerFile(500);
        taker.take(ACCOUNT, REGION, TABLE, settings.withTakenAt(now.minus(Duration.ofDays(40))));
        taker.take(ACCOUNT, REGION, TABLE, settings.withTakenAt(now.minus(Duration.ofHours(26))));

        // a day of business: a tenth of the orders change status, a few are deleted
        var changed = new ArrayList<Map<String, AttributeValue>>();
        for (int i = 0; i < 2_000; i += 10) {
            var order = new java.util.LinkedHashMap<>(items.get(i));
            order.put("status", AttributeValue.fromS(STATUSES[(i / 10) % STATUSES.length]));
            changed.add(order);
        }
        put(dynamo, changed);
        for (int i = 5; i < 2_000; i += 100) {
            var key = Map.of("customerId", items.get(i).get("customerId"), "orderId", items.get(i).get("orderId"));
            dynamo.deleteItem(b -> b.tableName(TABLE).key(key));
        }
        taker.take(ACCOUNT, REGION, TABLE, settings.withTakenAt(now.minus(Duration.ofHours(2))));
        return catalog.listBackups(ACCOUNT, REGION, TABLE).stream().map(VaultCatalog.BackupSummary::backupId).toList();
    }

    private static void createTable(DynamoDbClient dynamo) {
        try {
            dynamo.describeTable(b -> b.tableName(TABLE));
            return;
        } catch (ResourceNotFoundException e) {
            // create it
        }
        dynamo.createTable(b -> b.tableName(TABLE)
                .attributeDefinitions(attr("customerId", ScalarAttributeType.S), attr("orderId", ScalarAttributeType.S),
                        attr("status", ScalarAttributeType.S), attr("total", ScalarAttributeType.N))
                .keySchema(key("customerId", KeyType.HASH), key("orderId", KeyType.RANGE))
                .provisionedThroughput(ProvisionedThroughput.builder().readCapacityUnits(25L).writeCapacityUnits(25L).build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byStatus")
                        .keySchema(key("status", KeyType.HASH), key("orderId", KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                        .provisionedThroughput(ProvisionedThroughput.builder().readCapacityUnits(5L)
                                .writeCapacityUnits(5L).build()).build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("byTotal")
                        .keySchema(key("customerId", KeyType.HASH), key("total", KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()).build()));
    }

    private static Map<String, AttributeValue> order(Random r, int i) {
        var item = new java.util.LinkedHashMap<String, AttributeValue>();
        item.put("customerId", AttributeValue.fromS(String.format("c#%03d", i % 200)));
        LocalDate day = LocalDate.of(2026, 11, 1).plusDays(i % 29);
        item.put("orderId", AttributeValue.fromS(day + "#" + String.format("%04d", i)));
        item.put("status", AttributeValue.fromS(STATUSES[r.nextInt(STATUSES.length)]));
        item.put("total", AttributeValue.fromN(BigDecimal.valueOf(100 + r.nextInt(99_900), 2).toPlainString()));
        var lines = new ArrayList<AttributeValue>();
        for (int l = 0; l < 1 + r.nextInt(4); l++) {
            lines.add(AttributeValue.fromM(Map.of("sku", AttributeValue.fromS("sku-" + r.nextInt(500)),
                    "qty", AttributeValue.fromN(String.valueOf(1 + r.nextInt(5))))));
        }
        item.put("lines", AttributeValue.fromL(lines));
        item.put("tags", AttributeValue.fromSs(r.nextBoolean() ? List.of("web", "promo") : List.of("store")));
        item.put("giftWrap", AttributeValue.fromBool(r.nextInt(10) == 0));
        if (r.nextInt(5) == 0) {
            item.put("coupon", AttributeValue.fromNul(true));
        }
        item.put("receipt", AttributeValue.fromB(SdkBytes.fromString("receipt " + i, StandardCharsets.UTF_8)));
        return item;
    }

    private static void put(DynamoDbClient dynamo, List<Map<String, AttributeValue>> items) {
        for (int i = 0; i < items.size(); i += 25) {
            var batch = items.subList(i, Math.min(items.size(), i + 25)).stream()
                    .map(item -> WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build())
                    .toList();
            dynamo.batchWriteItem(b -> b.requestItems(Map.of(TABLE, batch)));
        }
    }

    private static AttributeDefinition attr(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
