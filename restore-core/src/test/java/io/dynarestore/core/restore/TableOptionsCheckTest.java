package io.dynarestore.core.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Destination.Billing;
import io.dynarestore.contracts.request.Destination.Encryption;
import io.dynarestore.contracts.request.Destination.TableOptions;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.TableDescriptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.Tag;

class TableOptionsCheckTest {

    static final String KEY = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";

    static TableOptions with(
            Map<String, String> tags,
            Encryption encryption,
            Billing billing,
            Destination.TimeToLive ttl,
            Boolean lsis) {
        return new TableOptions(null, lsis, tags, encryption, null, null, billing, null, ttl, null);
    }

    static Stream<Arguments> invalidOptions() {
        Map<String, String> fiftyTags = new LinkedHashMap<>();
        IntStream.range(0, 49).forEach(i -> fiftyTags.put("k" + i, "v"));
        return Stream.of(
                Arguments.of(
                        "a malformed KMS ARN",
                        with(null, new Encryption(Encryption.Type.CUSTOMER_MANAGED, "key-1234"), null, null, null),
                        "/destination/options/encryption/kmsKeyArn",
                        "not a KMS key ARN"),
                Arguments.of(
                        "a KMS key of another region",
                        with(
                                null,
                                new Encryption(Encryption.Type.CUSTOMER_MANAGED, KEY.replace("us-east-1", "eu-west-1")),
                                null,
                                null,
                                null),
                        "/destination/options/encryption/kmsKeyArn",
                        "region eu-west-1"),
                Arguments.of(
                        "a customer key without its ARN",
                        with(null, new Encryption(Encryption.Type.CUSTOMER_MANAGED, null), null, null, null),
                        "/destination/options/encryption/kmsKeyArn",
                        "needs the ARN"),
                Arguments.of(
                        "a key ARN with the default key",
                        with(null, new Encryption(Encryption.Type.DEFAULT, KEY), null, null, null),
                        "/destination/options/encryption/kmsKeyArn",
                        "only for CUSTOMER_MANAGED"),
                Arguments.of(
                        "a reserved aws: tag",
                        with(Map.of("aws:owner", "x"), null, null, null, null),
                        "/destination/options/tags/aws:owner",
                        "reserved by AWS"),
                Arguments.of(
                        "our own tag prefix",
                        with(Map.of("dynarestore:restore-id", "x"), null, null, null, null),
                        "/destination/options/tags/dynarestore:restore-id",
                        "reserved for the restore"),
                Arguments.of(
                        "a tag with a forbidden character",
                        with(Map.of("cost#center", "x"), null, null, null, null),
                        "/destination/options/tags/cost#center",
                        "characters DynamoDB does not allow"),
                Arguments.of(
                        "a tag value over 256 characters",
                        with(Map.of("k", "v".repeat(257)), null, null, null, null),
                        "/destination/options/tags/k",
                        "0 to 256"),
                Arguments.of(
                        "more tags than DynamoDB allows with the backup's",
                        with(fiftyTags, null, null, null, null),
                        "/destination/options/tags",
                        "more than DynamoDB's 50"),
                Arguments.of(
                        "provisioned billing without units",
                        with(null, null, new Billing(Billing.Mode.PROVISIONED, 5L, null), null, null),
                        "/destination/options/billing",
                        "needs readCapacityUnits and writeCapacityUnits"),
                Arguments.of(
                        "on-demand billing with units",
                        with(null, null, new Billing(Billing.Mode.PAY_PER_REQUEST, 5L, 5L), null, null),
                        "/destination/options/billing",
                        "takes no capacity units"),
                Arguments.of(
                        "TTL without an attribute",
                        with(null, null, null, new Destination.TimeToLive(true, null), null),
                        "/destination/options/timeToLive/attributeName",
                        "needs the name of the attribute"),
                Arguments.of(
                        "LSIs of a backup without LSIs",
                        with(null, null, null, null, true),
                        "/destination/options/includeLocalSecondaryIndexes",
                        "no local secondary indexes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidOptions")
    void refusesAnOptionDynamoDbWouldRefuseNamingTheFieldAndTheFix(
            String what, TableOptions options, String field, String message) {
        // Given a backup of orders with one tag (so one backup tag plus the restore's own count)
        List<Tag> backupTags =
                List.of(Tag.builder().key("team").value("payments").build());

        // When the options are checked for a restore into us-east-1
        List<FieldError> errors =
                TableOptionsCheck.check(options, TableDescriptions.ordersWithGsi(), backupTags, "us-east-1");

        // Then the one error names the field and says what to do
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.message()).contains(message);
        });
    }

    @Test
    void acceptsEveryOptionWithinDynamoDbsRules() {
        var options = new TableOptions(
                true,
                false,
                Map.of("team", "dr", "cost-center", "42 / ops", "e", ""),
                new Encryption(Encryption.Type.CUSTOMER_MANAGED, KEY),
                Destination.StreamView.NEW_IMAGE,
                true,
                new Billing(Billing.Mode.PROVISIONED, 10L, 20L),
                true,
                new Destination.TimeToLive(true, "expiresAt"),
                Destination.TableClass.STANDARD_INFREQUENT_ACCESS);
        assertThat(TableOptionsCheck.check(options, TableDescriptions.ordersWithGsi(), List.of(), "us-east-1"))
                .isEmpty();
        assertThat(TableOptionsCheck.check(
                        new TableOptions(
                                null,
                                null,
                                null,
                                new Encryption(
                                        Encryption.Type.CUSTOMER_MANAGED,
                                        "arn:aws:kms:us-east-1:111122223333:alias/restores"),
                                null,
                                null,
                                null,
                                null,
                                null,
                                null),
                        TableDescriptions.ordersWithGsi(),
                        List.of(),
                        "us-east-1"))
                .isEmpty();
    }

    @Test
    void refusesToCarryTheBackupsKmsKeyIntoAnotherRegion() {
        // Given a backup encrypted with a key of us-east-1, restored into eu-west-1 without an encryption option
        var backup = TableDescriptions.configured(KEY);

        // When checked
        var errors = TableOptionsCheck.check(null, backup, List.of(), "eu-west-1");

        // Then the restore must choose a key of eu-west-1
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("/destination/options/encryption");
            assertThat(e.message()).contains("cannot use").contains("CUSTOMER_MANAGED with a key of eu-west-1");
        });
    }
}
