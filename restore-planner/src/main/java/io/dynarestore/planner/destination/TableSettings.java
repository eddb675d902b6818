package io.dynarestore.planner.destination;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Destination.TableOptions;
import io.dynarestore.core.table.RestoreTags;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;
import software.amazon.awssdk.services.dynamodb.model.SSEDescription;
import software.amazon.awssdk.services.dynamodb.model.SSESpecification;
import software.amazon.awssdk.services.dynamodb.model.SSEStatus;
import software.amazon.awssdk.services.dynamodb.model.SSEType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableClass;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * The settings a restored table gets: each one as it was at backup time unless the request's
 * {@link TableOptions} override it. Tags are the backup's, then the request's, then the
 * restore's own {@code dynarestore:restore-id} tag.
 *
 * @param encryption        {@code null} keeps DynamoDB's default (a key owned by DynamoDB)
 * @param stream            {@code null} for no stream
 * @param onDemand          PAY_PER_REQUEST billing; otherwise provisioned
 * @param readUnits         the table's provisioned read units when overridden, else {@code null} (as backup)
 * @param writeUnits        the table's provisioned write units when overridden, else {@code null} (as backup)
 * @param ttlAttribute      the TTL attribute, {@code null} when TTL is off
 * @param tableClass        {@code null} for DynamoDB's default (STANDARD)
 */
public record TableSettings(
        boolean includeGsis,
        boolean includeLsis,
        List<Tag> tags,
        Encryption encryption,
        StreamViewType stream,
        boolean pointInTimeRecovery,
        boolean onDemand,
        Long readUnits,
        Long writeUnits,
        boolean deletionProtection,
        String ttlAttribute,
        TableClass tableClass) {

    /** Encryption at rest by a KMS key: the account's AWS managed key when {@code kmsKeyArn} is null. */
    public record Encryption(String kmsKeyArn) {

        public SSESpecification specification() {
            var sse = SSESpecification.builder().enabled(true).sseType(SSEType.KMS);
            if (kmsKeyArn != null) {
                sse.kmsMasterKeyId(kmsKeyArn);
            }
            return sse.build();
        }
    }

    /**
     * @param backup          the table as described at backup time
     * @param backupTags      its tags at backup time
     * @param ttl             its TTL at backup time, or {@code null} when not recorded
     * @param continuous      its continuous backups (PITR) at backup time, or {@code null} when not recorded
     * @param options         the request's options, or {@code null}
     */
    public static TableSettings of(
            String restoreId,
            TableDescription backup,
            List<Tag> backupTags,
            TimeToLiveDescription ttl,
            ContinuousBackupsDescription continuous,
            TableOptions options) {
        TableOptions o = options == null ? new TableOptions(null, null, null) : options;
        boolean hasLsis = backup.hasLocalSecondaryIndexes()
                && !backup.localSecondaryIndexes().isEmpty();

        Encryption encryption = encryption(o, backup);

        StreamViewType stream = stream(o, backup);

        boolean pitr = pointInTimeRecovery(o, continuous);

        boolean onDemand = isOnDemand(backup);
        Long read = null;
        Long write = null;
        if (o.billing() != null) {
            onDemand = o.billing().mode() == Destination.Billing.Mode.PAY_PER_REQUEST;
            if (!onDemand) {
                read = o.billing().readCapacityUnits();
                write = o.billing().writeCapacityUnits();
            }
        }

        boolean deletionProtection = o.deletionProtection() != null
                ? o.deletionProtection()
                : Boolean.TRUE.equals(backup.deletionProtectionEnabled());

        String ttlAttribute = ttlAttribute(o, ttl);

        TableClass tableClass = o.tableClass() != null
                ? TableClass.fromValue(o.tableClass().name())
                : backup.tableClassSummary() != null
                        ? backup.tableClassSummary().tableClass()
                        : null;

        return new TableSettings(
                o.includeGlobalSecondaryIndexes() == null || o.includeGlobalSecondaryIndexes(),
                hasLsis && (o.includeLocalSecondaryIndexes() == null || o.includeLocalSecondaryIndexes()),
                RestoreTags.of(restoreId, backupTags, o.tags()),
                encryption,
                stream,
                pitr,
                onDemand,
                read,
                write,
                deletionProtection,
                ttlAttribute,
                tableClass);
    }

    /** The encryption asked for, else the backup's. */
    private static Encryption encryption(TableOptions o, TableDescription backup) {
        if (o.encryption() == null) {
            return backupEncryption(backup.sseDescription());
        }
        return switch (o.encryption().type()) {
            case DEFAULT -> null;
            case AWS_MANAGED -> new Encryption(null);
            case CUSTOMER_MANAGED -> new Encryption(o.encryption().kmsKeyArn());
        };
    }

    /** The stream asked for (none when DISABLED), else the backup's. */
    private static StreamViewType stream(TableOptions o, TableDescription backup) {
        if (o.streams() != null) {
            return o.streams() == Destination.StreamView.DISABLED
                    ? null
                    : StreamViewType.fromValue(o.streams().name());
        }
        var spec = backup.streamSpecification();
        return spec != null && Boolean.TRUE.equals(spec.streamEnabled()) ? spec.streamViewType() : null;
    }

    private static boolean pointInTimeRecovery(TableOptions o, ContinuousBackupsDescription continuous) {
        if (o.pointInTimeRecovery() != null) {
            return o.pointInTimeRecovery();
        }
        return continuous != null
                && continuous.pointInTimeRecoveryDescription() != null
                && continuous.pointInTimeRecoveryDescription().pointInTimeRecoveryStatus()
                        == PointInTimeRecoveryStatus.ENABLED;
    }

    /** The attribute TTL reads: the request's, or the backup's while enabled; {@code null} for none. */
    private static String ttlAttribute(TableOptions o, TimeToLiveDescription ttl) {
        if (o.timeToLive() != null) {
            return Boolean.TRUE.equals(o.timeToLive().enabled())
                    ? o.timeToLive().attributeName()
                    : null;
        }
        boolean enabled = ttl != null
                && (ttl.timeToLiveStatus() == TimeToLiveStatus.ENABLED
                        || ttl.timeToLiveStatus() == TimeToLiveStatus.ENABLING);
        return enabled ? ttl.attributeName() : null;
    }

    /** The backup's encryption: a KMS key (its ARN), or {@code null} for DynamoDB's own key. */
    static Encryption backupEncryption(SSEDescription sse) {
        if (sse == null || sse.status() != SSEStatus.ENABLED && sse.status() != SSEStatus.ENABLING) {
            return null;
        }
        return new Encryption(sse.kmsMasterKeyArn());
    }

    /** Whether {@code d} is billed per request (on demand) rather than provisioned. */
    public static boolean isOnDemand(TableDescription d) {
        return d.billingModeSummary() != null && d.billingModeSummary().billingMode() == BillingMode.PAY_PER_REQUEST;
    }

    /** The stream specification of CreateTable and UpdateTable. */
    public StreamSpecification streamSpecification() {
        return stream == null
                ? null
                : StreamSpecification.builder()
                        .streamEnabled(true)
                        .streamViewType(stream)
                        .build();
    }

    /** The encryption specification of CreateTable and ImportTable: {@code null} for DynamoDB's default. */
    public SSESpecification sseSpecification() {
        return encryption == null ? null : encryption.specification();
    }
}
