package io.dynarestore.contracts.request;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Map;

/** Where restored items go. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Destination.NewTable.class, name = "NEW_TABLE"),
    @JsonSubTypes.Type(value = Destination.ExistingTable.class, name = "EXISTING_TABLE"),
    @JsonSubTypes.Type(value = Destination.InPlace.class, name = "IN_PLACE"),
    @JsonSubTypes.Type(value = Destination.File.class, name = "FILE")
})
public sealed interface Destination {

    /**
     * A table created by the restore. Account and region default to the source's; the name
     * defaults to {@code Restored-<source>-<yyyyMMddHHmmss>}.
     */
    record NewTable(String account, String region, String tableName, TableOptions options) implements Destination {}

    /** A table that exists already. */
    record ExistingTable(String account, String region, String tableName) implements Destination {}

    /**
     * The source table itself. {@code account} and {@code region} may be left out; when given they
     * must be the source's, since an in-place restore never crosses accounts or regions.
     */
    record InPlace(String account, String region) implements Destination {
        public InPlace() {
            this(null, null);
        }
    }

    /** A file of the matched items (granular recovery). */
    record File(String format, Delivery delivery) implements Destination {}

    /**
     * Settings of a restored table. Every option left out takes its value at backup time (for
     * indexes: every GSI, and every LSI when the backup has LSIs); the tags are added to the
     * backup's tags.
     *
     * @param encryption          the key that encrypts the table at rest
     * @param streams             the stream view, or {@code DISABLED}
     * @param pointInTimeRecovery whether DynamoDB's own PITR is on for the restored table
     * @param billing             billing mode, and the throughput of a provisioned table
     * @param deletionProtection  whether the table refuses DeleteTable
     * @param timeToLive          the TTL attribute, or disabled
     * @param tableClass          STANDARD or STANDARD_INFREQUENT_ACCESS
     */
    record TableOptions(
            Boolean includeGlobalSecondaryIndexes,
            Boolean includeLocalSecondaryIndexes,
            Map<String, String> tags,
            Encryption encryption,
            StreamView streams,
            Boolean pointInTimeRecovery,
            Billing billing,
            Boolean deletionProtection,
            TimeToLive timeToLive,
            TableClass tableClass) {

        public TableOptions(
                Boolean includeGlobalSecondaryIndexes, Boolean includeLocalSecondaryIndexes, Map<String, String> tags) {
            this(
                    includeGlobalSecondaryIndexes,
                    includeLocalSecondaryIndexes,
                    tags,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null);
        }

        /** These options, billed as {@code billing} says. */
        public TableOptions withBilling(Billing billing) {
            return new TableOptions(
                    includeGlobalSecondaryIndexes,
                    includeLocalSecondaryIndexes,
                    tags,
                    encryption,
                    streams,
                    pointInTimeRecovery,
                    billing,
                    deletionProtection,
                    timeToLive,
                    tableClass);
        }
    }

    /**
     * Encryption at rest: {@code DEFAULT} (a key owned by DynamoDB), {@code AWS_MANAGED} (the
     * account's {@code aws/dynamodb} KMS key) or {@code CUSTOMER_MANAGED} (the KMS key of
     * {@code kmsKeyArn}, in the destination's region).
     */
    record Encryption(Type type, String kmsKeyArn) {
        public enum Type {
            DEFAULT,
            AWS_MANAGED,
            CUSTOMER_MANAGED
        }
    }

    /** What the table's stream records hold, or {@code DISABLED} for no stream. */
    enum StreamView {
        DISABLED,
        KEYS_ONLY,
        NEW_IMAGE,
        OLD_IMAGE,
        NEW_AND_OLD_IMAGES
    }

    /** Billing mode; a provisioned table also gets its read and write capacity units. */
    record Billing(Mode mode, Long readCapacityUnits, Long writeCapacityUnits) {
        public enum Mode {
            PROVISIONED,
            PAY_PER_REQUEST
        }
    }

    /** TTL: the attribute that holds each item's expiry (epoch seconds), or disabled. */
    record TimeToLive(Boolean enabled, String attributeName) {}

    /** DynamoDB table classes. */
    enum TableClass {
        STANDARD,
        STANDARD_INFREQUENT_ACCESS
    }

    /** How a file reaches its reader. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = Delivery.Download.class, name = "DOWNLOAD"),
        @JsonSubTypes.Type(value = Delivery.Email.class, name = "EMAIL")
    })
    sealed interface Delivery {
        record Download() implements Delivery {}

        /**
         * A link mailed to {@code recipients} that opens only with a passcode. {@code linkId} is set
         * by restore-api when it issues the link and the passcode; a request without it (one
         * published straight to Kafka) is refused, since nobody could be given the passcode.
         */
        record Email(List<String> recipients, String message, String linkId) implements Delivery {

            public Email(List<String> recipients, String message) {
                this(recipients, message, null);
            }

            /** This delivery with the link restore-api issued for it. */
            public Email withLink(String linkId) {
                return new Email(recipients, message, linkId);
            }
        }
    }
}
