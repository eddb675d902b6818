package io.dynarestore.local;

import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.backups.BackupTaker;
import io.dynarestore.testkit.Dynalite;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * 2,000 orders with values of every type, three backups in the vault (one expired) and hours of
 * point-in-time history with a gap.
 */
final class DemoData {

    static final String TABLE = "orders";
    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    private static final String[] STATUSES = {"PLACED", "SHIPPED", "DELIVERED", "FAILED"};

    private DemoData() {}

    /**
     * Seeds the demo unless the vault already has backups of it; returns the backup ids. The
     * table's story: 2,000 orders; a backup 40 days ago (expired) and one 26 hours ago; two hours
     * of recorded business after it; a day the vault did not record (a gap); a backup two hours
     * ago and every write since recorded, in exports of 15 minutes.
     */
    static List<String> seed(DynamoDbClient dynamo, S3Client s3, VaultLayout layout) {
        var catalog = new VaultCatalog(s3, layout);
        if (!catalog.listBackups(ACCOUNT, REGION, TABLE).isEmpty()) {
            return catalog.listBackups(ACCOUNT, REGION, TABLE).stream()
                    .map(VaultCatalog.BackupSummary::backupId)
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
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        var settings = BackupTaker.Settings.defaults().withItemsPerFile(500);
        taker.take(ACCOUNT, REGION, TABLE, settings.asOf(now.minus(Duration.ofDays(40))));
        taker.take(ACCOUNT, REGION, TABLE, settings.asOf(now.minus(Duration.ofHours(26))));

        var capture = new ChangeCapture(dynamo, TABLE, List.of("customerId", "orderId"));
        int next = 2_000;
        next = business(capture, random, items, next, now.minus(Duration.ofHours(26)), now.minus(Duration.ofHours(24)));
        exportEvery15Minutes(capture, s3, layout, now.minus(Duration.ofHours(26)), now.minus(Duration.ofHours(24)));
        next = business(capture, random, items, next, now.minus(Duration.ofHours(24)), now.minus(Duration.ofHours(2)));
        capture.discard();
        taker.take(ACCOUNT, REGION, TABLE, settings.asOf(now.minus(Duration.ofHours(2))));
        business(capture, random, items, next, now.minus(Duration.ofHours(2)), now);
        exportEvery15Minutes(capture, s3, layout, now.minus(Duration.ofHours(2)), now);
        return catalog.listBackups(ACCOUNT, REGION, TABLE).stream()
                .map(VaultCatalog.BackupSummary::backupId)
                .toList();
    }

    /** Orders change status, some are cancelled (deleted), new ones come in: about one write a minute. */
    private static int business(
            ChangeCapture capture,
            Random r,
            List<Map<String, AttributeValue>> items,
            int next,
            Instant from,
            Instant to) {
        for (Instant t = from.plusSeconds(r.nextInt(60)); t.isBefore(to); t = t.plusSeconds(20 + r.nextInt(80))) {
            int kind = r.nextInt(10);
            if (kind < 6) {
                var order = new LinkedHashMap<>(items.get(r.nextInt(items.size())));
                order.put("status", AttributeValue.fromS(STATUSES[r.nextInt(STATUSES.length)]));
                capture.put(order, t);
            } else if (kind < 7) {
                var order = items.get(r.nextInt(items.size()));
                capture.delete(Map.of("customerId", order.get("customerId"), "orderId", order.get("orderId")), t);
            } else {
                var order = order(r, next++);
                items.add(order);
                capture.put(order, t);
            }
        }
        return next;
    }

    private static void exportEvery15Minutes(
            ChangeCapture capture, S3Client s3, VaultLayout layout, Instant from, Instant to) {
        for (Instant start = from; start.isBefore(to); start = start.plus(Duration.ofMinutes(15))) {
            Instant end = start.plus(Duration.ofMinutes(15)).isAfter(to) ? to : start.plus(Duration.ofMinutes(15));
            String id = BackupTaker.newBackupId(start);
            capture.export(s3, layout, ACCOUNT, REGION, id, start, end);
        }
    }

    private static void createTable(DynamoDbClient dynamo) {
        try {
            dynamo.describeTable(b -> b.tableName(TABLE));
            return;
        } catch (ResourceNotFoundException e) {
            // create it
        }
        dynamo.createTable(b -> b.tableName(TABLE)
                .attributeDefinitions(
                        attr("customerId", ScalarAttributeType.S),
                        attr("orderId", ScalarAttributeType.S),
                        attr("status", ScalarAttributeType.S),
                        attr("total", ScalarAttributeType.N))
                .keySchema(key("customerId", KeyType.HASH), key("orderId", KeyType.RANGE))
                .provisionedThroughput(ProvisionedThroughput.builder()
                        .readCapacityUnits(25L)
                        .writeCapacityUnits(25L)
                        .build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName("byStatus")
                        .keySchema(key("status", KeyType.HASH), key("orderId", KeyType.RANGE))
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.ALL)
                                .build())
                        .provisionedThroughput(ProvisionedThroughput.builder()
                                .readCapacityUnits(5L)
                                .writeCapacityUnits(5L)
                                .build())
                        .build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder()
                        .indexName("byTotal")
                        .keySchema(key("customerId", KeyType.HASH), key("total", KeyType.RANGE))
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.KEYS_ONLY)
                                .build())
                        .build()));
        Dynalite.awaitActive(dynamo, TABLE);
    }

    private static Map<String, AttributeValue> order(Random r, int i) {
        var item = new LinkedHashMap<String, AttributeValue>();
        item.put("customerId", AttributeValue.fromS(String.format("c#%03d", i % 200)));
        LocalDate day = LocalDate.of(2026, 11, 1).plusDays(i % 29);
        item.put("orderId", AttributeValue.fromS(day + "#" + String.format("%04d", i)));
        item.put("status", AttributeValue.fromS(STATUSES[r.nextInt(STATUSES.length)]));
        item.put(
                "total",
                AttributeValue.fromN(
                        BigDecimal.valueOf(100 + r.nextInt(99_900), 2).toPlainString()));
        var lines = new ArrayList<AttributeValue>();
        for (int l = 0; l < 1 + r.nextInt(4); l++) {
            lines.add(AttributeValue.fromM(Map.of(
                    "sku",
                    AttributeValue.fromS("sku-" + r.nextInt(500)),
                    "qty",
                    AttributeValue.fromN(String.valueOf(1 + r.nextInt(5))))));
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
                    .map(item -> WriteRequest.builder()
                            .putRequest(PutRequest.builder().item(item).build())
                            .build())
                    .toList();
            dynamo.batchWriteItem(b -> b.requestItems(Map.of(TABLE, batch)));
        }
    }

    private static AttributeDefinition attr(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(type)
                .build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
