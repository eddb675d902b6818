package io.dynarestore.e2e;

import static io.dynarestore.core.KeySchemas.attr;
import static io.dynarestore.core.KeySchemas.key;

import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.RandomItems;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** Source tables and backups for end-to-end tests. */
final class BackupFixtures {

    /** Key attributes: pk (S), sk (N); a GSI on g (S) and an LSI on (pk, l (S)). */
    static final RandomItems.Shape SHAPE = new RandomItems.Shape("pk", "S", "sk", "N", Map.of("g", "S", "l", "S"));

    static final List<String> KEYS = List.of("pk", "sk");

    private BackupFixtures() {}

    /** Creates a provisioned table with one GSI and one LSI and returns its description. */
    static TableDescription createSourceTable(DynamoDbClient dynamo, String name) {
        dynamo.createTable(b -> b.tableName(name)
                .attributeDefinitions(
                        attr("pk", ScalarAttributeType.S),
                        attr("sk", ScalarAttributeType.N),
                        attr("g", ScalarAttributeType.S),
                        attr("l", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .provisionedThroughput(throughput(25, 40))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName("byG")
                        .keySchema(key("g", KeyType.HASH))
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.INCLUDE)
                                .nonKeyAttributes("a1", "a2")
                                .build())
                        .provisionedThroughput(throughput(5, 10))
                        .build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder()
                        .indexName("byL")
                        .keySchema(key("pk", KeyType.HASH), key("l", KeyType.RANGE))
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.ALL)
                                .build())
                        .build()));
        return dynamo.describeTable(b -> b.tableName(name)).table();
    }

    /**
     * Writes a backup of {@code count} generated items straight into the vault (no source items
     * needed), with item {@code largeAt} (if not negative) grown to about 350 KB.
     */
    static Backup writeBackup(
            RestoreStack stack,
            TableDescription table,
            String backupId,
            RandomItems items,
            int count,
            int itemsPerFile,
            int largeAt,
            Instant expiresAt)
            throws Exception {
        return writeBackup(
                stack, RestoreStack.ACCOUNT, table, backupId, items, count, itemsPerFile, largeAt, expiresAt);
    }

    /** The same, as a backup of the table of another account. */
    static Backup writeBackup(
            RestoreStack stack,
            String account,
            TableDescription table,
            String backupId,
            RandomItems items,
            int count,
            int itemsPerFile,
            int largeAt,
            Instant expiresAt)
            throws Exception {
        var writer = new BackupWriter(
                stack.s3.client(),
                new VaultLayout(RestoreStack.BUCKET, ""),
                account,
                RestoreStack.REGION,
                table.tableName(),
                backupId,
                itemsPerFile);
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            var futures = new java.util.ArrayList<Future<?>>();
            for (int t = 0; t < threads; t++) {
                int part = t;
                futures.add(pool.submit(() -> {
                    try (var p = writer.openPart()) {
                        for (int i = part; i < count; i += threads) {
                            p.write(i == largeAt ? items.largeItem(i, 350 * 1024) : items.item(i));
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        Instant takenAt = Instant.now().minus(Duration.ofHours(1));
        return writer.finish(table, List.of(), null, takenAt, expiresAt);
    }

    /**
     * Writes a backup of {@code items} in one part, counting the write units of the table's LSIs,
     * with the table's tags, TTL and continuous backups as they were, taken an hour ago.
     */
    static Backup writeItems(
            RestoreStack stack,
            TableDescription table,
            String backupId,
            List<Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>> items,
            int itemsPerFile,
            List<software.amazon.awssdk.services.dynamodb.model.Tag> tags,
            software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription ttl,
            software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription continuous) {
        var writer = new BackupWriter(
                        stack.s3.client(),
                        new VaultLayout(RestoreStack.BUCKET, ""),
                        RestoreStack.ACCOUNT,
                        RestoreStack.REGION,
                        table.tableName(),
                        backupId,
                        itemsPerFile)
                .countingIndexesOf(table);
        try (var part = writer.openPart()) {
            items.forEach(part::write);
        }
        return writer.finish(
                table,
                tags,
                ttl,
                continuous,
                Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofDays(7)));
    }

    static ProvisionedThroughput throughput(long read, long write) {
        return ProvisionedThroughput.builder()
                .readCapacityUnits(read)
                .writeCapacityUnits(write)
                .build();
    }
}
