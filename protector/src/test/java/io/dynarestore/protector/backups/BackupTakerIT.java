package io.dynarestore.protector.backups;

import static io.dynarestore.core.KeySchemas.attr;
import static io.dynarestore.core.KeySchemas.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

class BackupTakerIT {

    static Dynalite dynalite;
    static S3Server s3;

    @BeforeAll
    static void start() {
        dynalite = Dynalite.start();
        s3 = S3Server.start("vault");
    }

    @AfterAll
    static void stop() {
        dynalite.close();
        s3.close();
    }

    @Test
    void backsUpEveryItemOfALiveTableWithItsIndexesIntoDataFilesOfBoundedSize() throws Exception {
        // Given a live table with a GSI and an LSI holding 3,000 items
        DynamoDbClient dynamo = dynalite.client();
        var shape = new RandomItems.Shape("pk", "S", "sk", "N", Map.of("g", "S", "l", "S"));
        var items = new RandomItems(11, shape);
        createTable(dynamo, "live");
        Dynalite.awaitActive(dynamo, "live");
        fill(dynamo, "live", items, 3_000);

        // When it is backed up with 4 scan segments, 400 items per data file
        var taker = new BackupTaker(dynamo, s3.client(), new VaultLayout("vault", ""));
        Backup backup = taker.take(
                "000000000000",
                "us-east-1",
                "live",
                BackupTaker.Settings.defaults().withItemsPerFile(400));

        // Then the backup has all 3,000 items, in files of at most 400, with the table's schema
        assertThat(backup.itemCount()).isEqualTo(3_000);
        assertThat(backup.files()).allSatisfy(f -> assertThat(f.itemCount()).isBetween(1L, 400L));
        assertThat(backup.files().stream().mapToLong(ManifestFile::itemCount).sum())
                .isEqualTo(3_000);
        var table = backup.metadata().tableDescription();
        assertThat(table.globalSecondaryIndexes())
                .extracting(g -> g.indexName())
                .containsExactly("byG");
        assertThat(table.localSecondaryIndexes()).extracting(l -> l.indexName()).containsExactly("byL");

        // and its items equal the table's
        var read = itemsOf(backup);
        assertThat(ItemDigests.of(read, List.of("pk", "sk")))
                .isEqualTo(ItemDigests.ofTable(dynamo, "live", List.of("pk", "sk")));
        // and every line starts with the partition key, then the sort key, although the items were put (and
        // are scanned) with their keys last
        assertThat(dynamo.scan(b -> b.tableName("live").limit(1)).items().get(0).keySet())
                .as("the order a Scan gives")
                .endsWith("pk", "sk");
        assertThat(linesOf(backup))
                .hasSize(3_000)
                .allSatisfy(line -> assertThat(line)
                        .matches("\\{\"Item\":\\{\"pk\":\\{\"S\":\"p\\d+\"},\"sk\":\\{\"N\":\"\\d+\"},.*"));
    }

    @Test
    void aBackupCutShortByACrashResumesFromItsSegmentsCheckpointsAndHoldsEveryItemOnce() {
        // Given a table of 3,000 items, backed up in 2 segments, pages of 50 items, files of 100
        DynamoDbClient dynamo = dynalite.client();
        var items = new RandomItems(12, new RandomItems.Shape("pk", "S", "sk", "N", Map.of("g", "S", "l", "S")));
        createTable(dynamo, "crashing");
        Dynalite.awaitActive(dynamo, "crashing");
        fill(dynamo, "crashing", items, 3_000);
        Instant firstStart = Instant.now().minusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        var settings = BackupTaker.Settings.defaults()
                .withItemsPerFile(100)
                .withScanSegments(2)
                .withReadBudget(0, 50)
                .withBackupId("b-crash")
                .withTakenAt(firstStart);
        var layout = new VaultLayout("vault", "");

        // When the first attempt dies on its 31st Scan page (about half the table read)
        var dying = new ScanCounting(dynamo, 31);
        assertThatThrownBy(() -> new BackupTaker(dying.client(), s3.client(), layout)
                        .take("000000000000", "us-east-1", "crashing", settings))
                .hasMessageContaining("the replica died");
        assertThat(new VaultCatalog(s3.client(), layout).listBackups("000000000000", "us-east-1", "crashing"))
                .as("a half-done backup is not listed")
                .isEmpty();

        // and the backup is taken again under the same id, a minute later
        var second = new ScanCounting(dynamo, Integer.MAX_VALUE);
        Backup backup = new BackupTaker(second.client(), s3.client(), layout)
                .take("000000000000", "us-east-1", "crashing", settings.withTakenAt(firstStart.plusSeconds(60)));

        // Then it stands for its first attempt's start, since its files hold items read from then on
        assertThat(backup.metadata().takenAt()).isEqualTo(firstStart);

        System.out.printf(
                "a Scan cut short after %d pages was resumed in %d pages%n", dying.pages() - 1, second.pages());
        // and it read about the half the first did not (at most a file a segment again), not the whole table
        assertThat(second.pages()).as("pages the second attempt read").isLessThanOrEqualTo(60 - 30 + 2 * 2 + 2);
        // and it holds every item once, counted once, with the checkpoints gone
        var read = itemsOf(backup);
        assertThat(read).hasSize(3_000);
        assertThat(ItemDigests.of(read, List.of("pk", "sk")))
                .isEqualTo(ItemDigests.ofTable(dynamo, "crashing", List.of("pk", "sk")));
        assertThat(backup.itemCount()).isEqualTo(3_000);
        assertThat(backup.metadata().writeUnits())
                .isEqualTo(read.stream()
                        .mapToLong(
                                i -> io.dynarestore.core.codec.ItemSize.wcu(io.dynarestore.core.codec.ItemSize.of(i)))
                        .sum());
        assertThat(backup.metadata().indexWriteUnits().get("byL"))
                .isEqualTo(read.stream()
                        .filter(i -> i.containsKey("l"))
                        .mapToLong(
                                i -> io.dynarestore.core.codec.ItemSize.wcu(io.dynarestore.core.codec.ItemSize.of(i)))
                        .sum());
        assertThat(s3.client()
                        .listObjectsV2(b -> b.bucket("vault")
                                .prefix(layout.backupPrefix("000000000000", "us-east-1", "crashing", "b-crash")
                                        + "_scan/"))
                        .keyCount())
                .isZero();
    }

    /** Puts items 0 to {@code n - 1} into {@code table}, 25 to a batch. */
    static void fill(DynamoDbClient dynamo, String table, RandomItems items, int n) {
        var batch = new ArrayList<WriteRequest>();
        for (int i = 0; i < n; i++) {
            // the keys last, as a Scan of DynamoDB may give them
            var keysLast = new LinkedHashMap<>(items.item(i));
            keysLast.put("pk", keysLast.remove("pk"));
            keysLast.put("sk", keysLast.remove("sk"));
            batch.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(keysLast).build())
                    .build());
            if (batch.size() == 25 || i == n - 1) {
                dynamo.batchWriteItem(BatchWriteItemRequest.builder()
                        .requestItems(Map.of(table, batch))
                        .build());
                batch.clear();
            }
        }
    }

    /** Every item the backup's data files hold, read back from the vault. */
    static List<Map<String, AttributeValue>> itemsOf(Backup backup) {
        var read = new ArrayList<Map<String, AttributeValue>>();
        for (ManifestFile f : backup.files()) {
            try (var reader = new DataFileReader(
                    f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                    f.md5Checksum())) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    read.add(line.item());
                }
            }
        }
        return read;
    }

    /** Every line of the backup's data files, as stored. */
    static List<String> linesOf(Backup backup) throws Exception {
        var lines = new ArrayList<String>();
        for (ManifestFile f : backup.files()) {
            byte[] gz = s3.client()
                    .getObjectAsBytes(b -> b.bucket("vault").key(f.dataFileS3Key()))
                    .asByteArray();
            try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
                new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                        .lines()
                        .forEach(lines::add);
            }
        }
        return lines;
    }

    /** A DynamoDB client that counts Scan pages and fails the given one, as a replica dying mid-Scan. */
    static final class ScanCounting {
        private final DynamoDbClient delegate;
        private final int failAt;
        private final java.util.concurrent.atomic.AtomicInteger pages = new java.util.concurrent.atomic.AtomicInteger();

        ScanCounting(DynamoDbClient delegate, int failAt) {
            this.delegate = delegate;
            this.failAt = failAt;
        }

        int pages() {
            return pages.get();
        }

        DynamoDbClient client() {
            return (DynamoDbClient) java.lang.reflect.Proxy.newProxyInstance(
                    DynamoDbClient.class.getClassLoader(),
                    new Class<?>[] {DynamoDbClient.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("scan") && pages.incrementAndGet() >= failAt) {
                            throw new IllegalStateException("the replica died");
                        }
                        try {
                            return method.invoke(delegate, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    static void createTable(DynamoDbClient dynamo, String name) {
        dynamo.createTable(b -> b.tableName(name)
                .attributeDefinitions(
                        attr("pk", ScalarAttributeType.S),
                        attr("sk", ScalarAttributeType.N),
                        attr("g", ScalarAttributeType.S),
                        attr("l", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .provisionedThroughput(ProvisionedThroughput.builder()
                        .readCapacityUnits(5L)
                        .writeCapacityUnits(5L)
                        .build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName("byG")
                        .keySchema(key("g", KeyType.HASH))
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.ALL)
                                .build())
                        .provisionedThroughput(ProvisionedThroughput.builder()
                                .readCapacityUnits(1L)
                                .writeCapacityUnits(1L)
                                .build())
                        .build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder()
                        .indexName("byL")
                        .keySchema(key("pk", KeyType.HASH), key("l", KeyType.RANGE))
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.KEYS_ONLY)
                                .build())
                        .build()));
    }
}
