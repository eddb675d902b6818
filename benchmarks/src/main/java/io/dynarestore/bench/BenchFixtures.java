package io.dynarestore.bench;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** What the benchmarks share: the vault layout and item shape, backups, tables, requests and batches. */
final class BenchFixtures {

    static final VaultLayout LAYOUT = new VaultLayout("vault", "");
    static final RandomItems.Shape SHAPE = RandomItems.Shape.simple();

    private BenchFixtures() {}

    static String[] registry(String prefix, String endpoint) {
        return new String[] {
            "--" + prefix + ".aws.accounts[0].id=000000000000",
            "--" + prefix + ".aws.accounts[0].regions.us-east-1.dynamodb-endpoint=" + endpoint,
            "--" + prefix + ".aws.accounts[0].regions.us-east-1.enforced-capacity=true"
        };
    }

    static String[] concat(String[] a, String... b) {
        var all = new ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(new String[0]);
    }

    static void submit(KafkaBroker kafka, String restoreId, String table, String into) throws Exception {
        try (var producer = new KafkaProducer<String, String>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            producer.send(new ProducerRecord<>(
                            Topic.REQUESTS.topicName(),
                            restoreId,
                            "{\"restoreId\":\"" + restoreId
                                    + "\",\"source\":{\"table\":\"" + table
                                    + "\",\"backupId\":\"b\"},\"destination\":{\"type\":"
                                    + "\"NEW_TABLE\",\"tableName\":\"" + into + "\"}}"))
                    .get();
        }
    }

    static TableDescription description(String table, long wcu) {
        return SdkJson.fromJson(
                "{\"TableName\":\"" + table + "\",\"AttributeDefinitions\":["
                        + "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
                        + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
                        + "\"TableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/" + table + "\","
                        + "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":100,\"WriteCapacityUnits\":" + wcu + "}}",
                TableDescription.builder());
    }

    static Backup writeBackup(S3Server s3, String table, int count, int perFile, long wcu) throws Exception {
        var items = new RandomItems(6, SHAPE);
        var writer = new BackupWriter(s3.client(), LAYOUT, "000000000000", "us-east-1", table, "b", perFile);
        var threads = new ArrayList<Thread>();
        for (int t = 0; t < 2; t++) {
            int part = t;
            var thread = new Thread(() -> {
                try (var p = writer.openPart()) {
                    for (int i = part; i < count; i += 2) {
                        p.write(items.item(i));
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return writer.finish(
                description(table, wcu), List.of(), null, Instant.now().minus(Duration.ofHours(1)), null);
    }

    static void createTable(DynamoDbClient dynamo, String name) {
        var d = description(name, 100);
        dynamo.createTable(b -> b.tableName(name)
                .attributeDefinitions(d.attributeDefinitions())
                .keySchema(d.keySchema())
                .provisionedThroughput(p -> p.readCapacityUnits(100L).writeCapacityUnits(100L)));
        Dynalite.awaitActive(dynamo, name);
    }

    static void writeAll(DynamoDbClient dynamo, String table, List<WriteRequest> batch) {
        if (batch.isEmpty()) {
            return;
        }
        Map<String, List<WriteRequest>> pending = Map.of(table, new ArrayList<>(batch));
        while (!pending.isEmpty()) {
            var request = pending;
            var left = dynamo.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
            pending = left == null || left.isEmpty() ? Map.of() : left;
        }
        batch.clear();
    }
}
