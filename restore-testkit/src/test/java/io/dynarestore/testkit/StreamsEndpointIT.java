package io.dynarestore.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The Streams endpoint, driven by the AWS SDK's own clients as a production service would. */
class StreamsEndpointIT {

    private static Dynalite dynalite;
    private static StreamsEndpoint endpoint;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        dynalite = Dynalite.start();
        endpoint = StreamsEndpoint.inFrontOf(dynalite.endpoint());
        dynamo = Dynalite.client(endpoint.endpoint());
        streams = DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .build();
    }

    @AfterAll
    static void stop() {
        streams.close();
        endpoint.close();
        dynalite.close();
    }

    private static String createTable(String name, boolean stream) {
        dynamo.createTable(b -> b.tableName(name)
                .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                .keySchema(k -> k.attributeName("id").keyType("HASH"))
                .billingMode("PAY_PER_REQUEST")
                .streamSpecification(s -> s.streamEnabled(stream).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        Dynalite.awaitActive(dynamo, name);
        return dynamo.describeTable(b -> b.tableName(name)).table().latestStreamArn();
    }

    private static Map<String, AttributeValue> item(String id, String v) {
        return Map.of("id", AttributeValue.fromS(id), "v", AttributeValue.fromS(v));
    }

    private static List<Record> readAll(String arn) {
        var out = new ArrayList<Record>();
        for (Shard shard : streams.describeStream(b -> b.streamArn(arn))
                .streamDescription()
                .shards()) {
            String it = streams.getShardIterator(b ->
                            b.streamArn(arn).shardId(shard.shardId()).shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                    .shardIterator();
            while (it != null) {
                String current = it;
                var page = streams.getRecords(b -> b.shardIterator(current));
                out.addAll(page.records());
                it = page.records().isEmpty() && shard.sequenceNumberRange().endingSequenceNumber() == null
                        ? null
                        : page.nextShardIterator();
            }
        }
        return out;
    }

    @Test
    void recordsEveryChangingWriteWithItsOldAndNewImageInOrder() {
        // Given a table with a NEW_AND_OLD_IMAGES stream
        String arn = createTable("streamed", true);
        assertThat(arn).contains("table/streamed/stream/");
        assertThat(dynamo.describeTable(b -> b.tableName("streamed"))
                        .table()
                        .streamSpecification()
                        .streamEnabled())
                .isTrue();

        // When items are created, overwritten, rewritten unchanged, updated and deleted
        dynamo.putItem(b -> b.tableName("streamed").item(item("a", "1")));
        dynamo.putItem(b -> b.tableName("streamed").item(item("a", "2")));
        dynamo.putItem(b -> b.tableName("streamed").item(item("a", "2")));
        dynamo.updateItem(b -> b.tableName("streamed")
                .key(Map.of("id", AttributeValue.fromS("a")))
                .updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("3"))));
        dynamo.batchWriteItem(b -> b.requestItems(Map.of(
                "streamed",
                List.of(
                        WriteRequest.builder()
                                .putRequest(p -> p.item(item("b", "1")))
                                .build(),
                        WriteRequest.builder()
                                .deleteRequest(d -> d.key(Map.of("id", AttributeValue.fromS("a"))))
                                .build()))));
        dynamo.deleteItem(b -> b.tableName("streamed").key(Map.of("id", AttributeValue.fromS("missing"))));

        // Then the stream holds one record per change, with both images, in order
        var records = readAll(arn);
        assertThat(records)
                .extracting(Record::eventName)
                .containsExactly(
                        OperationType.INSERT,
                        OperationType.MODIFY,
                        OperationType.MODIFY,
                        OperationType.INSERT,
                        OperationType.REMOVE);
        assertThat(records.get(1).dynamodb().oldImage()).isEqualTo(item("a", "1"));
        assertThat(records.get(1).dynamodb().newImage()).isEqualTo(item("a", "2"));
        assertThat(records.get(2).dynamodb().newImage()).isEqualTo(item("a", "3"));
        assertThat(records.get(4).dynamodb().oldImage()).isEqualTo(item("a", "3"));
        assertThat(records.get(4).dynamodb().newImage()).isEmpty();
        assertThat(records.get(0).dynamodb().approximateCreationDateTime().getNano())
                .isZero();
        assertThat(records).extracting(r -> r.dynamodb().sequenceNumber()).isSorted();
        assertThat(streams.listStreams(b -> b.tableName("streamed")).streams()).hasSize(1);
    }

    @Test
    void rollsShardsOverParentBeforeChild() {
        // Given shards that close after three records
        endpoint.recordsPerShard(3);
        try {
            String arn = createTable("rolled", true);

            // When seven writes are made
            for (int i = 0; i < 7; i++) {
                int n = i;
                dynamo.putItem(b -> b.tableName("rolled").item(item("k" + n, "v")));
            }

            // Then three shards chain parent to child, the first two closed, and every record is read once
            var shards = streams.describeStream(b -> b.streamArn(arn))
                    .streamDescription()
                    .shards();
            assertThat(shards).hasSize(3);
            assertThat(shards.get(1).parentShardId()).isEqualTo(shards.get(0).shardId());
            assertThat(shards.get(2).parentShardId()).isEqualTo(shards.get(1).shardId());
            assertThat(shards.get(0).sequenceNumberRange().endingSequenceNumber())
                    .isNotNull();
            assertThat(shards.get(2).sequenceNumberRange().endingSequenceNumber())
                    .isNull();
            String closed = streams.getShardIterator(b -> b.streamArn(arn)
                            .shardId(shards.get(0).shardId())
                            .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                    .shardIterator();
            var page = streams.getRecords(b -> b.shardIterator(closed));
            assertThat(page.records()).hasSize(3);
            assertThat(page.nextShardIterator()).isNull();
            assertThat(readAll(arn)).hasSize(7);
        } finally {
            endpoint.recordsPerShard(10_000);
        }
    }

    @Test
    void aTrimmedPositionIsTrimmedDataAccessException() throws InterruptedException {
        // Given a stream with a record, read up to it
        String arn = createTable("trimmed", true);
        dynamo.putItem(b -> b.tableName("trimmed").item(item("a", "1")));
        var shard = streams.describeStream(b -> b.streamArn(arn))
                .streamDescription()
                .shards()
                .get(0);
        String seq = shard.sequenceNumberRange().startingSequenceNumber();
        dynamo.putItem(b -> b.tableName("trimmed").item(item("b", "1")));

        // When the retention passes
        // (a second, so that the record written after it outlives the calls below on a loaded machine)
        endpoint.retention(Duration.ofSeconds(1));
        try {
            Thread.sleep(1_500);
            dynamo.putItem(b -> b.tableName("trimmed").item(item("c", "1")));

            // Then a position before the oldest record is refused as DynamoDB Streams refuses it
            assertThatThrownBy(() -> streams.getShardIterator(b -> b.streamArn(arn)
                            .shardId(shard.shardId())
                            .shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                            .sequenceNumber(seq)))
                    .isInstanceOf(TrimmedDataAccessException.class);
            // and what was trimmed stays trimmed once the retention is long again
            endpoint.retention(Duration.ofHours(24));
            assertThat(readAll(arn))
                    .extracting(r -> r.dynamodb().keys().get("id").s())
                    .containsExactly("c");
        } finally {
            endpoint.retention(Duration.ofHours(24));
        }
    }

    @Test
    void aTableWithoutAStreamIsNotRecordedUntilOneIsEnabled() {
        // Given a table without a stream
        assertThat(createTable("plain", false)).isNull();
        dynamo.putItem(b -> b.tableName("plain").item(item("before", "1")));

        // When UpdateTable enables one
        var updated = dynamo.updateTable(b -> b.tableName("plain")
                        .streamSpecification(
                                s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)))
                .tableDescription();
        dynamo.putItem(b -> b.tableName("plain").item(item("after", "1")));

        // Then only the write made after it is in the stream
        assertThat(updated.latestStreamArn()).isNotNull();
        assertThat(readAll(updated.latestStreamArn()))
                .extracting(r -> r.dynamodb().keys().get("id").s())
                .containsExactly("after");
    }
}
