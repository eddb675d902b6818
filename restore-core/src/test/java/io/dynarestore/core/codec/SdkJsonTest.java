package io.dynarestore.core.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

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
        assertThat(d.globalSecondaryIndexes().get(0).projection().projectionType()).isEqualTo(ProjectionType.INCLUDE);
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
}
