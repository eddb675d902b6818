package io.dynarestore.core.vault;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
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
    void backsUpEveryItemOfALiveTableWithItsIndexesIntoDataFilesOfBoundedSize() {
        // Given a live table with a GSI and an LSI holding 3,000 items
        DynamoDbClient dynamo = dynalite.client();
        var shape = new RandomItems.Shape("pk", "S", "sk", "N", Map.of("g", "S", "l", "S"));
        var items = new RandomItems(11, shape);
        createTable(dynamo, "live");
        Dynalite.awaitActive(dynamo, "live");
        var batch = new ArrayList<WriteRequest>();
        for (int i = 0; i < 3_000; i++) {
            batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(items.item(i)).build()).build());
            if (batch.size() == 25) {
                dynamo.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of("live", batch)).build());
                batch.clear();
            }
        }

        // When it is backed up with 4 scan segments, 400 items per data file
        var taker = new BackupTaker(dynamo, s3.client(), new VaultLayout("vault", ""));
        Backup backup = taker.take("000000000000", "us-east-1", "live",
                BackupTaker.Settings.defaults().withItemsPerFile(400));

        // Then the backup has all 3,000 items, in files of at most 400, with the table's schema
        assertThat(backup.itemCount()).isEqualTo(3_000);
        assertThat(backup.files()).allSatisfy(f -> assertThat(f.itemCount()).isBetween(1L, 400L));
        assertThat(backup.files().stream().mapToLong(ManifestFile::itemCount).sum()).isEqualTo(3_000);
        var table = backup.metadata().tableDescription();
        assertThat(table.globalSecondaryIndexes()).extracting(g -> g.indexName()).containsExactly("byG");
        assertThat(table.localSecondaryIndexes()).extracting(l -> l.indexName()).containsExactly("byL");

        // and its items equal the table's
        var read = new ArrayList<Map<String, AttributeValue>>();
        for (ManifestFile f : backup.files()) {
            try (var reader = new DataFileReader(f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())), f.md5Checksum())) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    read.add(line.item());
                }
            }
        }
        assertThat(ItemDigests.of(read, List.of("pk", "sk")))
                .isEqualTo(ItemDigests.ofTable(dynamo, "live", List.of("pk", "sk")));
    }

    static void createTable(DynamoDbClient dynamo, String name) {
        dynamo.createTable(b -> b.tableName(name)
                .attributeDefinitions(attr("pk", ScalarAttributeType.S), attr("sk", ScalarAttributeType.N),
                        attr("g", ScalarAttributeType.S), attr("l", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .provisionedThroughput(ProvisionedThroughput.builder().readCapacityUnits(5L).writeCapacityUnits(5L).build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byG").keySchema(key("g", KeyType.HASH))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                        .provisionedThroughput(ProvisionedThroughput.builder().readCapacityUnits(1L).writeCapacityUnits(1L).build())
                        .build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("byL")
                        .keySchema(key("pk", KeyType.HASH), key("l", KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()).build()));
    }

    static AttributeDefinition attr(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
