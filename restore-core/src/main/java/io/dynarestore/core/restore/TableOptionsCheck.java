package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Destination.TableOptions;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.table.RestoreTags;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.SSEDescription;
import software.amazon.awssdk.services.dynamodb.model.SSEStatus;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * Checks the options of a new table against DynamoDB's rules before anything is created, so
 * that a request DynamoDB would refuse hours later (after staging an import, say) is refused at
 * once with the field and the fix: tags within DynamoDB's limits (50 per table, counting the
 * backup's and the restore's own; keys of 1-128 and values of 0-256 letters, digits, spaces and
 * {@code + - = . _ : /}; {@code aws:} reserved), a well-formed KMS key ARN in the destination's
 * region, throughput that matches the billing mode, a TTL attribute when TTL is on, and LSIs
 * only when the backup has them.
 */
public final class TableOptionsCheck {

    /** DynamoDB's limit of tags per table. */
    public static final int MAX_TAGS = 50;

    private static final String AT = "/destination/options";
    private static final Pattern TAG_TEXT = Pattern.compile("^[\\p{L}\\p{Z}\\p{N}_.:/=+\\-]*$");
    private static final Pattern KMS_ARN = Pattern.compile(
            "^arn:(aws|aws-cn|aws-us-gov|aws-iso|aws-iso-b|aws-iso-e|aws-iso-f|aws-eusc):kms:([a-z0-9-]+):([0-9]{12}):"
                    + "(key/[A-Za-z0-9-]{1,128}|alias/[A-Za-z0-9/_-]{1,250})$");

    private TableOptionsCheck() {}

    /**
     * @param backup            the table at backup time
     * @param backupTags        its tags at backup time
     * @param destinationRegion the region the table is restored into
     */
    public static List<FieldError> check(
            TableOptions options, TableDescription backup, List<Tag> backupTags, String destinationRegion) {
        var errors = new ArrayList<FieldError>();
        TableOptions o = options == null ? new TableOptions(null, null, null) : options;
        boolean backupHasLsis = backup.hasLocalSecondaryIndexes()
                && !backup.localSecondaryIndexes().isEmpty();
        if (Boolean.TRUE.equals(o.includeLocalSecondaryIndexes()) && !backupHasLsis) {
            errors.add(new FieldError(
                    AT + "/includeLocalSecondaryIndexes",
                    "the backup's table has no local "
                            + "secondary indexes; leave includeLocalSecondaryIndexes out or set it to false"));
        }
        tags(o, backupTags, errors);
        encryption(o, backup, destinationRegion, errors);
        billing(o, errors);
        timeToLive(o, errors);
        return errors;
    }

    /** Each tag as DynamoDB takes it, none reserved, and no more than its tags per table. */
    private static void tags(TableOptions o, List<Tag> backupTags, List<FieldError> errors) {
        if (o.tags() != null) {
            o.tags().forEach((key, value) -> {
                String field = AT + "/tags/" + key;
                if (key.isEmpty() || key.length() > 128) {
                    errors.add(new FieldError(field, "a tag key must be 1 to 128 characters long"));
                } else if (!TAG_TEXT.matcher(key).matches()) {
                    errors.add(new FieldError(
                            field,
                            "tag key '" + key + "' has characters DynamoDB does not allow; "
                                    + "use letters, digits, spaces and + - = . _ : /"));
                }
                String lower = key.toLowerCase(Locale.ROOT);
                if (lower.startsWith("aws:")) {
                    errors.add(new FieldError(
                            field, "tag keys beginning with aws: are reserved by AWS; choose " + "another key"));
                } else if (lower.startsWith("dynarestore:")) {
                    errors.add(new FieldError(
                            field,
                            "tag keys beginning with dynarestore: are reserved for the "
                                    + "restore's own tags; choose another key"));
                }
                if (value == null || value.length() > 256) {
                    errors.add(new FieldError(field, "a tag value must be 0 to 256 characters long"));
                } else if (!TAG_TEXT.matcher(value).matches()) {
                    errors.add(new FieldError(
                            field,
                            "the value of tag '" + key + "' has characters DynamoDB does "
                                    + "not allow; use letters, digits, spaces and + - = . _ : /"));
                }
            });
            int total = RestoreTags.of("x", backupTags, o.tags()).size();
            if (total > MAX_TAGS) {
                int fromBackup = backupTags == null ? 0 : backupTags.size();
                errors.add(new FieldError(
                        AT + "/tags",
                        "the restored table would have " + total + " tags (the "
                                + "backup's " + fromBackup + ", these "
                                + o.tags().size() + " and the restore's own "
                                + RestoreTags.RESTORE_TAG + "), more than DynamoDB's " + MAX_TAGS + " per table; ask "
                                + "for at most " + Math.max(0, o.tags().size() - (total - MAX_TAGS)) + " tags"));
            }
        }
    }

    /** A customer-managed key of the destination's region, or a default the backup's key does not rule out. */
    private static void encryption(
            TableOptions o, TableDescription backup, String destinationRegion, List<FieldError> errors) {
        if (o.encryption() != null) {
            var e = o.encryption();
            String field = AT + "/encryption/kmsKeyArn";
            if (e.type() == Destination.Encryption.Type.CUSTOMER_MANAGED) {
                if (e.kmsKeyArn() == null) {
                    errors.add(new FieldError(
                            field,
                            "CUSTOMER_MANAGED encryption needs the ARN of the KMS key, "
                                    + "such as arn:aws:kms:" + destinationRegion + ":111122223333:key/"
                                    + "1234abcd-12ab-34cd-56ef-1234567890ab"));
                } else {
                    Matcher m = KMS_ARN.matcher(e.kmsKeyArn());
                    if (!m.matches()) {
                        errors.add(new FieldError(
                                field,
                                "'" + e.kmsKeyArn() + "' is not a KMS key ARN; give one "
                                        + "like arn:aws:kms:" + destinationRegion + ":111122223333:key/"
                                        + "1234abcd-12ab-34cd-56ef-1234567890ab (or an alias ARN, ...:alias/name)"));
                    } else if (!m.group(2).equals(destinationRegion)) {
                        errors.add(new FieldError(
                                field,
                                "KMS key " + e.kmsKeyArn() + " is in region " + m.group(2)
                                        + ", but the table is restored into " + destinationRegion
                                        + "; DynamoDB needs a key "
                                        + "of the table's region"));
                    }
                }
            } else if (e.kmsKeyArn() != null) {
                errors.add(new FieldError(
                        field, "kmsKeyArn is only for CUSTOMER_MANAGED encryption; leave it out " + "for " + e.type()));
            }
        } else {
            String keyRegion = backupKeyRegion(backup.sseDescription());
            if (keyRegion != null && !keyRegion.equals(destinationRegion)) {
                errors.add(new FieldError(
                        AT + "/encryption",
                        "the backup's table was encrypted with KMS key "
                                + backup.sseDescription().kmsMasterKeyArn() + " of region " + keyRegion
                                + ", which a table "
                                + "in " + destinationRegion + " cannot use; set encryption to DEFAULT, AWS_MANAGED, or "
                                + "CUSTOMER_MANAGED with a key of " + destinationRegion));
            }
        }
    }

    /** Provisioned billing with both capacities, on-demand with none. */
    private static void billing(TableOptions o, List<FieldError> errors) {
        if (o.billing() != null) {
            var b = o.billing();
            boolean provisioned = b.mode() == Destination.Billing.Mode.PROVISIONED;
            if (provisioned && (b.readCapacityUnits() == null || b.writeCapacityUnits() == null)) {
                errors.add(new FieldError(
                        AT + "/billing",
                        "PROVISIONED billing needs readCapacityUnits and " + "writeCapacityUnits (each at least 1)"));
            }
            if (!provisioned && (b.readCapacityUnits() != null || b.writeCapacityUnits() != null)) {
                errors.add(new FieldError(
                        AT + "/billing",
                        "PAY_PER_REQUEST billing takes no capacity units; "
                                + "leave readCapacityUnits and writeCapacityUnits out"));
            }
        }
    }

    /** An enabled TTL names its attribute. */
    private static void timeToLive(TableOptions o, List<FieldError> errors) {
        if (o.timeToLive() != null) {
            var t = o.timeToLive();
            if (Boolean.TRUE.equals(t.enabled())
                    && (t.attributeName() == null || t.attributeName().isEmpty())) {
                errors.add(new FieldError(
                        AT + "/timeToLive/attributeName",
                        "TTL needs the name of the attribute " + "that holds each item's expiry time (epoch seconds)"));
            }
        }
    }

    /** The region of the backup table's KMS key, or {@code null} when it used DynamoDB's own key. */
    static String backupKeyRegion(SSEDescription sse) {
        if (sse == null || sse.status() != SSEStatus.ENABLED || sse.kmsMasterKeyArn() == null) {
            return null;
        }
        Matcher m = KMS_ARN.matcher(sse.kmsMasterKeyArn());
        return m.matches() ? m.group(2) : null;
    }

    /**
     * The capacity a new table asks for, by the request or (when it leaves billing out) by the
     * backup's description, stays within the configured cap: a description registered with an
     * export is the registrant's word, and capacity is billed by the hour.
     */
    static List<FieldError> capacity(TableOptions options, TableDescription table, long maxCapacityUnits) {
        String at = "/destination/options/billing";
        var errors = new ArrayList<FieldError>();
        if (options != null && options.billing() != null) {
            var b = options.billing();
            if (over(b.readCapacityUnits(), maxCapacityUnits)) {
                errors.add(overCap(at + "/readCapacityUnits", b.readCapacityUnits(), maxCapacityUnits));
            }
            if (over(b.writeCapacityUnits(), maxCapacityUnits)) {
                errors.add(overCap(at + "/writeCapacityUnits", b.writeCapacityUnits(), maxCapacityUnits));
            }
            return errors;
        }
        var throughputs = new ArrayList<ProvisionedThroughputDescription>();
        throughputs.add(table.provisionedThroughput());
        table.globalSecondaryIndexes().forEach(g -> throughputs.add(g.provisionedThroughput()));
        if (throughputs.stream()
                .anyMatch(t -> t != null
                        && (over(t.readCapacityUnits(), maxCapacityUnits)
                                || over(t.writeCapacityUnits(), maxCapacityUnits)))) {
            errors.add(new FieldError(
                    at,
                    "the backup's table (or one of its GSIs) had more read or write units "
                            + "than the installation's limit of " + maxCapacityUnits + "; give options.billing "
                            + "(PAY_PER_REQUEST, or units within the limit)"));
        }
        return errors;
    }

    private static FieldError overCap(String field, long units, long maxCapacityUnits) {
        return new FieldError(
                field,
                "asks for " + units + " units; at most " + maxCapacityUnits + " are taken (the installation's limit)");
    }

    private static boolean over(Long units, long maxCapacityUnits) {
        return units != null && units > maxCapacityUnits;
    }
}
