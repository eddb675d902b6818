package io.dynarestore.core;

import io.dynarestore.core.codec.SdkJson;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** Table descriptions for tests, in the shape {@code aws dynamodb describe-table} prints. */
public final class TableDescriptions {

    public static final String ORDERS_WITH_GSI = """
            {
              "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "N"},
                {"AttributeName": "g", "AttributeType": "S"}
              ],
              "TableName": "orders",
              "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
              "TableStatus": "ACTIVE",
              "CreationDateTime": 1700000000.123,
              "ProvisionedThroughput": {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 5, "WriteCapacityUnits": 7},
              "TableSizeBytes": 0,
              "ItemCount": 0,
              "TableArn": "arn:aws:dynamodb:us-east-1:000000000000:table/orders",
              "BillingModeSummary": {"BillingMode": "PROVISIONED"},
              "GlobalSecondaryIndexes": [{
                "IndexName": "byG",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "b"]},
                "IndexStatus": "ACTIVE",
                "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 2}
              }]
            }
            """;

    private TableDescriptions() {}

    /** Orders as it was at backup time with a stream, a KMS key, the IA class and deletion protection on. */
    public static TableDescription configured(String kmsKeyArn) {
        String json = ORDERS_WITH_GSI.replace("\"TableStatus\": \"ACTIVE\",", """
                "TableStatus": "ACTIVE",
                "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
                "SSEDescription": {"Status": "ENABLED", "SSEType": "KMS", "KMSMasterKeyArn": "%s"},
                "TableClassSummary": {"TableClass": "STANDARD_INFREQUENT_ACCESS"},
                "DeletionProtectionEnabled": true,
                """.formatted(kmsKeyArn));
        return SdkJson.fromJson(json, TableDescription.builder());
    }

    public static TableDescription ordersWithGsi() {
        return SdkJson.fromJson(ORDERS_WITH_GSI, TableDescription.builder());
    }
}
