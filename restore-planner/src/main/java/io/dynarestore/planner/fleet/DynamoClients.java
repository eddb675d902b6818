package io.dynarestore.planner.fleet;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The DynamoDB client of an account and region (the planner's {@code AwsClients::dynamo}). */
@FunctionalInterface
public interface DynamoClients {
    DynamoDbClient dynamo(String account, String region);
}
