package io.dynarestore.planner.destination;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Destination.Billing;
import io.dynarestore.contracts.request.Destination.Encryption;
import io.dynarestore.contracts.request.Destination.TableOptions;
import io.dynarestore.core.TableDescriptions;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.table.RestoreTags;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.SSEType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableClass;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

class TableSettingsTest {

    static final String KEY = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";

    static TableDescription configuredBackup() {
        return TableDescriptions.configured(KEY);
    }

    static TableOptions options(
            Map<String, String> tags,
            Encryption encryption,
            Destination.StreamView streams,
            Boolean pitr,
            Billing billing,
            Boolean deletionProtection,
            Destination.TimeToLive ttl,
            Destination.TableClass tableClass) {
        return new TableOptions(
                null, null, tags, encryption, streams, pitr, billing, deletionProtection, ttl, tableClass);
    }

    @Test
    void keepsEverySettingAsItWasAtBackupTimeWhenNoOptionIsGiven() {
        // Given a backup of a table with a stream, a KMS key, IA class, deletion protection, TTL and PITR
        var ttl = TimeToLiveDescription.builder()
                .timeToLiveStatus(TimeToLiveStatus.ENABLED)
                .attributeName("exp")
                .build();
        var pitr = ContinuousBackupsDescription.builder()
                .pointInTimeRecoveryDescription(p -> p.pointInTimeRecoveryStatus("ENABLED"))
                .continuousBackupsStatus("ENABLED")
                .build();

        // When settings are made without options
        var s = TableSettings.of(
                "r-1",
                configuredBackup(),
                List.of(Tag.builder().key("team").value("a").build()),
                ttl,
                pitr,
                null);

        // Then each is the backup's, and the tags are the backup's plus the restore's own
        assertThat(s.stream()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
        assertThat(s.encryption().kmsKeyArn()).isEqualTo(KEY);
        assertThat(s.tableClass()).isEqualTo(TableClass.STANDARD_INFREQUENT_ACCESS);
        assertThat(s.deletionProtection()).isTrue();
        assertThat(s.ttlAttribute()).isEqualTo("exp");
        assertThat(s.pointInTimeRecovery()).isTrue();
        assertThat(s.onDemand()).isFalse();
        assertThat(s.includeGsis()).isTrue();
        assertThat(s.tags()).extracting(Tag::key).containsExactly("team", RestoreTags.RESTORE_TAG);
    }

    @Test
    void overridesEachSettingTheRequestNames() {
        // Given options that change every setting
        var o = options(
                Map.of("team", "b", "env", "dr"),
                new Encryption(Encryption.Type.DEFAULT, null),
                Destination.StreamView.DISABLED,
                false,
                new Billing(Billing.Mode.PAY_PER_REQUEST, null, null),
                false,
                new Destination.TimeToLive(false, null),
                Destination.TableClass.STANDARD);

        // When settings are made from the configured backup
        var s = TableSettings.of(
                "r-1",
                configuredBackup(),
                List.of(Tag.builder().key("team").value("a").build()),
                null,
                null,
                o);
        var create = TableSpecs.createRequest(configuredBackup(), "copy", s);

        // Then the request's values win
        assertThat(s.stream()).isNull();
        assertThat(create.streamSpecification()).isNull();
        assertThat(s.encryption()).isNull();
        assertThat(create.sseSpecification()).isNull();
        assertThat(create.billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(create.provisionedThroughput()).isNull();
        assertThat(create.globalSecondaryIndexes().get(0).provisionedThroughput())
                .isNull();
        assertThat(create.deletionProtectionEnabled()).isNull();
        assertThat(create.tableClass()).isEqualTo(TableClass.STANDARD);
        assertThat(s.ttlAttribute()).isNull();
        assertThat(s.pointInTimeRecovery()).isFalse();
        assertThat(create.tags())
                .extracting(Tag::key, Tag::value)
                .contains(
                        org.assertj.core.groups.Tuple.tuple("team", "b"),
                        org.assertj.core.groups.Tuple.tuple("env", "dr"));
    }

    @Test
    void encryptsWithTheAwsManagedKeyOrTheCustomersKey() {
        var awsManaged = TableSettings.of(
                "r",
                TableDescriptions.ordersWithGsi(),
                List.of(),
                null,
                null,
                options(null, new Encryption(Encryption.Type.AWS_MANAGED, null), null, null, null, null, null, null));
        assertThat(awsManaged.sseSpecification().sseType()).isEqualTo(SSEType.KMS);
        assertThat(awsManaged.sseSpecification().kmsMasterKeyId()).isNull();

        var customer = TableSettings.of(
                "r",
                TableDescriptions.ordersWithGsi(),
                List.of(),
                null,
                null,
                options(
                        null,
                        new Encryption(Encryption.Type.CUSTOMER_MANAGED, KEY),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null));
        assertThat(customer.sseSpecification().kmsMasterKeyId()).isEqualTo(KEY);
    }

    @Test
    void givesAnOnDemandBackupsIndexesTheRequestedProvisionedThroughput() {
        // Given an on-demand backup restored as provisioned
        TableDescription onDemand = SdkJson.fromJson(
                TableDescriptions.ORDERS_WITH_GSI.replace(
                        "\"BillingMode\": \"PROVISIONED\"", "\"BillingMode\": \"PAY_PER_REQUEST\""),
                TableDescription.builder());
        var s = TableSettings.of(
                "r",
                onDemand,
                List.of(),
                null,
                null,
                options(null, null, null, null, new Billing(Billing.Mode.PROVISIONED, 11L, 22L), null, null, null));

        // When the table is created
        var create = TableSpecs.createRequest(onDemand, "copy", s);

        // Then the table and its index get 11 RCU and 22 WCU
        assertThat(create.provisionedThroughput().readCapacityUnits()).isEqualTo(11);
        assertThat(create.provisionedThroughput().writeCapacityUnits()).isEqualTo(22);
        assertThat(create.globalSecondaryIndexes()
                        .get(0)
                        .provisionedThroughput()
                        .writeCapacityUnits())
                .isEqualTo(22);
    }

    @Test
    void givesAProvisionedBackupsIndexesTheirOwnThroughputWhenOnlyTheTablesChanges() {
        var s = TableSettings.of(
                "r",
                TableDescriptions.ordersWithGsi(),
                List.of(),
                null,
                null,
                options(null, null, null, null, new Billing(Billing.Mode.PROVISIONED, 100L, 200L), null, null, null));
        var create = TableSpecs.createRequest(TableDescriptions.ordersWithGsi(), "copy", s);
        assertThat(create.provisionedThroughput().writeCapacityUnits()).isEqualTo(200);
        assertThat(create.globalSecondaryIndexes()
                        .get(0)
                        .provisionedThroughput()
                        .writeCapacityUnits())
                .isEqualTo(2);
    }
}
