package io.dynarestore.writer;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.writer.capacity.WriteBudgets;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** What the writer's integration tests share: clients of one dynalite, a budget far above their writes, and tables. */
public final class WriterFixtures {

    private WriterFixtures() {}

    /** Clients of the default account and region, whose DynamoDB is {@code dynamodb}. */
    public static AwsClients aws(URI dynamodb) {
        return new AwsClients(new AwsSettings(
                "000000000000",
                "us-east-1",
                new AwsSettings.Credentials("a", "b"),
                null,
                null,
                null,
                List.of(new AwsSettings.Account(
                        "000000000000",
                        null,
                        null,
                        Map.of("us-east-1", new AwsSettings.Region(dynamodb, false, false, null, null))))));
    }

    /** A budget far above what a test writes: only DynamoDB's answers shape the writes. */
    public static WriteBudgets liftedBudgets(AwsClients aws) {
        return new WriteBudgets(
                aws,
                new WriteBudgets.Settings(1e6, 4000, 4000, 1.0, 0.02, 0.05, Duration.ofMinutes(1)),
                new SimpleMeterRegistry());
    }

    /** A provisioned table keyed by {@code pk} (S) and {@code sk} (N), once it is active. */
    public static void createTable(DynamoDbClient dynamo, String name) {
        Dynalite.createTable(
                dynamo,
                name,
                RandomItems.Shape.simple(),
                b -> b.provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L)));
    }
}
