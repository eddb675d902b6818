package io.dynarestore.planner.destination;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.core.TableDescriptions;
import io.dynarestore.core.codec.SdkJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

class TableSpecsTest {

    static TableSettings settings(TableDescription d, Destination.TableOptions options) {
        return TableSettings.of("r-1", d, List.of(), null, null, options);
    }

    @Test
    void recreatesKeysIndexesAndProvisionedThroughput() {
        TableDescription d = TableDescriptions.ordersWithGsi();
        var request = TableSpecs.createRequest(d, "copy", settings(d, null));
        assertThat(request.tableName()).isEqualTo("copy");
        assertThat(request.keySchema()).isEqualTo(d.keySchema());
        assertThat(request.billingMode()).isEqualTo(BillingMode.PROVISIONED);
        assertThat(request.provisionedThroughput().writeCapacityUnits()).isEqualTo(7);
        assertThat(request.globalSecondaryIndexes()).singleElement().satisfies(g -> {
            assertThat(g.indexName()).isEqualTo("byG");
            assertThat(g.projection().nonKeyAttributes()).containsExactly("a", "b");
            assertThat(g.provisionedThroughput().writeCapacityUnits()).isEqualTo(2);
        });
    }

    @Test
    void leavesOutTheDefinitionsOfAttributesOnlyAnOmittedIndexUses() {
        // DynamoDB rejects attribute definitions that no key uses
        var request = TableSpecs.createRequest(
                TableDescriptions.ordersWithGsi(),
                "copy",
                settings(TableDescriptions.ordersWithGsi(), new Destination.TableOptions(false, false, null)));
        assertThat(request.hasGlobalSecondaryIndexes()).isFalse();
        assertThat(request.attributeDefinitions())
                .extracting(AttributeDefinition::attributeName)
                .containsExactly("pk", "sk");
    }

    @Test
    void keepsOnDemandBillingWithoutThroughput() {
        String json = TableDescriptions.ORDERS_WITH_GSI.replace(
                "\"BillingMode\": \"PROVISIONED\"", "\"BillingMode\": \"PAY_PER_REQUEST\"");
        TableDescription onDemand = SdkJson.fromJson(json, TableDescription.builder());
        var request = TableSpecs.createRequest(onDemand, "copy", settings(onDemand, null));
        assertThat(request.billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(request.provisionedThroughput()).isNull();
        assertThat(request.globalSecondaryIndexes().get(0).provisionedThroughput())
                .isNull();
    }
}
