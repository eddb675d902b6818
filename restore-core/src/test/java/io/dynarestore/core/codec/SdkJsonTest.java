package io.dynarestore.core.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import tools.jackson.databind.JsonNode;

class SdkJsonTest {

    /** Output of {@code aws dynamodb describe-table}, "Table" member, as a user would paste it. */
    static final String DESCRIBE_TABLE = io.dynarestore.core.TableDescriptions.ORDERS_WITH_GSI;

    @Test
    void readsTheAwsCliShapeOfATableDescription() {
        // When the CLI's JSON is read into the SDK model
        TableDescription d = SdkJson.fromJson(DESCRIBE_TABLE, TableDescription.builder());

        // Then every member is typed
        assertThat(d.tableName()).isEqualTo("orders");
        assertThat(d.keySchema().get(1).keyType()).isEqualTo(KeyType.RANGE);
        assertThat(d.creationDateTime()).isEqualTo(Instant.ofEpochSecond(1_700_000_000L, 123_000_000));
        assertThat(d.billingModeSummary().billingMode()).isEqualTo(BillingMode.PROVISIONED);
        assertThat(d.provisionedThroughput().writeCapacityUnits()).isEqualTo(7);
        assertThat(d.globalSecondaryIndexes().get(0).projection().projectionType())
                .isEqualTo(ProjectionType.INCLUDE);
        assertThat(d.globalSecondaryIndexes().get(0).indexStatus()).isEqualTo(IndexStatus.ACTIVE);
    }

    @Test
    void writesWhatItReadsSoThatADescriptionRoundTrips() {
        TableDescription d = SdkJson.fromJson(DESCRIBE_TABLE, TableDescription.builder());
        TableDescription again = SdkJson.fromJson(SdkJson.toJson(d), TableDescription.builder());
        assertThat(again).isEqualTo(d);
        // unset lists stay unset rather than becoming empty lists
        assertThat(again.hasLocalSecondaryIndexes()).isFalse();
    }

    /**
     * describe-table as each tool prints it: AWS CLI v1 (epoch seconds), AWS CLI v2 (ISO-8601 with
     * microseconds and an offset), the JavaScript SDK v3 (JSON.stringify: ISO with Z, the Table member
     * alone) and boto3 through json.dumps(default=str) (a space before the time).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"aws-cli-v1.json", "aws-cli-v2.json", "javascript-sdk-v3.json", "boto3-default-str.json"})
    void readsTheDescriptionEveryAwsToolPrintsIntoTheSameModel(String fixture) throws Exception {
        // Given the output of one tool
        JsonNode json;
        try (var in = getClass().getResourceAsStream("/describe-table/" + fixture)) {
            json = io.dynarestore.contracts.Json.mapper().readTree(in);
        }

        // When it is read as a table description
        TableDescription d = SdkJson.tableDescription(json);

        // Then it is the same description, to the millisecond
        assertThat(d.creationDateTime()).isEqualTo(Instant.parse("2025-03-14T09:26:53.589Z"));
        assertThat(d.provisionedThroughput().lastIncreaseDateTime())
                .isEqualTo(Instant.parse("2025-06-01T12:00:04.120Z"));
        assertThat(d.tableClassSummary().lastUpdateDateTime()).isEqualTo(Instant.parse("2025-04-01T00:00:00Z"));
        assertThat(d.localSecondaryIndexes()).extracting(l -> l.indexName()).containsExactly("byPlacedAt");
        assertThat(d.globalSecondaryIndexes().get(0).provisionedThroughput().readCapacityUnits())
                .isEqualTo(5);
        assertThat(d.sseDescription().kmsMasterKeyArn()).endsWith("key/0a1b2c3d-4e5f-6789-abcd-ef0123456789");
        assertThat(d.deletionProtectionEnabled()).isTrue();
        assertThat(d.tableArn()).isEqualTo("arn:aws:dynamodb:us-east-1:123456789012:table/orders");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {
                "a time that is no time      | {\"KeySchema\":[],\"AttributeDefinitions\":[],\"CreationDateTime\":\"yesterday\"} | /CreationDateTime",
                "a time that is an object    | {\"KeySchema\":[],\"AttributeDefinitions\":[],\"CreationDateTime\":{}}           | /CreationDateTime",
                "a time out of range         | {\"KeySchema\":[],\"AttributeDefinitions\":[],\"CreationDateTime\":1e300}        | /CreationDateTime",
                "a time beyond any double    | {\"KeySchema\":[],\"AttributeDefinitions\":[],\"CreationDateTime\":1e400}        | /CreationDateTime",
                "a count beyond any double   | {\"KeySchema\":[],\"AttributeDefinitions\":[],\"ItemCount\":-1e400}               | /ItemCount",
                "a count that is text        | {\"KeySchema\":[],\"AttributeDefinitions\":[],\"ItemCount\":\"many\"}          | /ItemCount",
                "a count that is a fraction  | {\"KeySchema\":[],\"AttributeDefinitions\":[],\"ItemCount\":1.5}                 | /ItemCount",
                "a flag that is text         | {\"KeySchema\":[],\"AttributeDefinitions\":[],\"DeletionProtectionEnabled\":\"yes\"} | /DeletionProtectionEnabled",
                "a list that is an object    | {\"KeySchema\":{},\"AttributeDefinitions\":[]}                                     | /KeySchema",
                "a nested member             | {\"KeySchema\":[{\"AttributeName\":[]}],\"AttributeDefinitions\":[]}             | /KeySchema/0/AttributeName",
                "no key schema               | {\"TableName\":\"orders\"}                                                       | (root)",
                "not an object               | [1, 2]                                                                               | (root)",
            })
    void refusesAnUnreadableDescriptionNamingTheMember(String caseName, String json, String path) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SdkJson.tableDescription(
                        io.dynarestore.contracts.Json.mapper().readTree(json)))
                .isInstanceOf(SdkJson.InvalidJsonException.class)
                .hasMessageStartingWith(path);
    }
}
