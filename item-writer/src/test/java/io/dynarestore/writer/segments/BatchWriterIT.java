package io.dynarestore.writer.segments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.UnreliableDynamo;
import io.dynarestore.writer.WriterFixtures;
import io.dynarestore.writer.capacity.WriteBudgets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** Batches against a DynamoDB that leaves items unprocessed and throttles, as the real one does. */
class BatchWriterIT {

    static Dynalite dynalite;
    static AwsClients aws;
    static WriteBudgets budgets;
    static Outages outages = new Outages(Duration.ofMillis(200), Duration.ofSeconds(30));

    @BeforeAll
    static void start() {
        dynalite = Dynalite.start();
        aws = WriterFixtures.aws(dynalite.endpoint());
        budgets = WriterFixtures.liftedBudgets(aws);
    }

    @AfterAll
    static void stop() {
        aws.close();
        dynalite.close();
    }

    static BatchWriter.Destination destination(DynamoDbClient dynamo, String table) {
        var target = new SegmentDispatched.WriteTarget(
                "000000000000", "us-east-1", table, List.of("pk", "sk"), List.of("S", "N"));
        return new BatchWriter.Destination(
                dynamo, table, budgets.lane(target), outages.table("000000000000", "us-east-1", table), () -> false);
    }

    static DynamoDbClient client(java.net.URI endpoint) {
        // no SDK retries: every retry seen here is the BatchWriter's own
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("a", "b")))
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD).retryStrategy(b -> b.maxAttempts(1)))
                .build();
    }

    static void createTable(String name) {
        WriterFixtures.createTable(dynalite.client(), name);
    }

    static List<WriteRequest> puts(RandomItems items, int from, int to) {
        var batch = new ArrayList<WriteRequest>();
        for (int i = from; i < to; i++) {
            batch.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(items.item(i)).build())
                    .build());
        }
        return batch;
    }

    @Test
    void writesEveryItemWhenDynamoLeavesItemsUnprocessedAndThrottles() throws Exception {
        // Given a DynamoDB that answers 40% of batches with half their items unprocessed and throttles 20%
        createTable("storm");
        var items = new RandomItems(3, RandomItems.Shape.simple());
        try (var proxy = UnreliableDynamo.inFrontOf(dynalite.endpoint(), 42, 0.4, 0.2);
                var dynamo = client(proxy.endpoint())) {
            var writer = new BatchWriter(new Backoff(30, Duration.ofMillis(1), Duration.ofMillis(20)), outages);

            // When 2,000 items are written in batches of 25
            int calls = 0;
            for (int i = 0; i < 2_000; i += 25) {
                calls += writer.write(destination(dynamo, "storm"), puts(items, i, i + 25));
            }

            // Then every item is in the table, and the retries are the ones the proxy forced
            assertThat(ItemDigests.ofTable(dynalite.client(), "storm", List.of("pk", "sk")))
                    .isEqualTo(ItemDigests.of(items.items(2_000), List.of("pk", "sk")));
            assertThat(proxy.partialAnswers()).isGreaterThan(10);
            assertThat(proxy.throttled()).isGreaterThan(5);
            assertThat((long) calls).isEqualTo(proxy.batchCalls());
        }
    }

    @Test
    void failsTheBatchAsTransientWhenRetriesRunOutAndDropsNothingSilently() throws Exception {
        createTable("hopeless");
        var items = new RandomItems(4, RandomItems.Shape.simple());
        try (var proxy = UnreliableDynamo.inFrontOf(dynalite.endpoint(), 7, 0.0, 1.0);
                var dynamo = client(proxy.endpoint())) {
            var writer = new BatchWriter(new Backoff(3, Duration.ofMillis(1), Duration.ofMillis(5)), outages);
            assertThatThrownBy(() -> writer.write(destination(dynamo, "hopeless"), puts(items, 0, 25)))
                    .isInstanceOf(TransientWriteException.class)
                    .hasMessageContaining("hopeless");
            assertThat(proxy.batchCalls()).isEqualTo(3);
        }
    }

    @Test
    void failsTheBatchForGoodWhenTheTableIsMissing() throws Exception {
        var items = new RandomItems(5, RandomItems.Shape.simple());
        try (var dynamo = client(dynalite.endpoint())) {
            var writer = new BatchWriter(new Backoff(3, Duration.ofMillis(1), Duration.ofMillis(5)), outages);
            assertThatThrownBy(() -> writer.write(destination(dynamo, "missing"), puts(items, 0, 5)))
                    .isInstanceOf(PermanentWriteException.class)
                    .hasMessageContaining("missing");
        }
    }
}
