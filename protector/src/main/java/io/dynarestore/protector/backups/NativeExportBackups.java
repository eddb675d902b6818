package io.dynarestore.protector.backups;

import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.BackupMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.exports.TableExports;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportFormat;
import software.amazon.awssdk.services.dynamodb.model.ExportTableToPointInTimeRequest;
import software.amazon.awssdk.services.dynamodb.model.ExportType;

/**
 * Full backups by DynamoDB's own export (FULL_EXPORT, DYNAMODB_JSON), which reads no capacity: the
 * export is written straight into the backup's folder of the vault (DynamoDB adds
 * {@code AWSDynamoDB/<ExportId>/}), and {@code backup.json}, with the table's description taken when
 * the export started and the export's location, is written last, so that a half-done backup is never
 * listed. The backup is exact at its ExportTime: a snapshot, not a Scan read while writes went on.
 */
public final class NativeExportBackups {

    /** A completed backup. */
    public record Taken(BackupMetadata metadata, long itemCount) {}

    private final VaultCatalog catalog;
    private final TableExports exports;

    public NativeExportBackups(VaultCatalog catalog, TableExports exports) {
        this.catalog = catalog;
        this.exports = exports;
    }

    /**
     * Exports the table as it was at {@code at} (rounded down to the second, and no earlier than its
     * point-in-time recovery reaches) into backup {@code backupId}.
     */
    public Taken take(DynamoDbClient dynamo, ProtectionSet policy, String backupId, Instant at) {
        String table = policy.table();
        ContinuousBackupsDescription continuous = TableExports.recovery(dynamo, table);
        Instant exportTime =
                exportTime(at, continuous.pointInTimeRecoveryDescription().earliestRestorableDateTime());
        var described = DescribedTable.of(dynamo, table);
        VaultLayout layout = catalog.layout();
        String folder = layout.backupPrefix(policy.account(), policy.region(), table, backupId);
        TableExports.Completed done = exports.run(
                dynamo, request(described.description().tableArn(), exportTime, backupId, layout.bucket(), folder));
        BackupMetadata metadata = BackupMetadata.of(
                        backupId,
                        exportTime,
                        exportTime.plus(policy.backupRetention()),
                        policy.account(),
                        policy.region(),
                        described.description(),
                        described.tags(),
                        described.ttl(),
                        continuous,
                        null,
                        null)
                .at(done.location());
        catalog.put(folder + VaultLayout.BACKUP_JSON, metadata);
        return new Taken(metadata, done.itemCount());
    }

    /**
     * The second a backup of {@code at} exports: {@code at} rounded down, or, when recovery was turned on
     * after it, the first whole second recovery reaches (waited for, when it has not begun yet).
     */
    static Instant exportTime(Instant at, Instant earliestRestorable) {
        Instant t = Instant.ofEpochSecond(at.getEpochSecond());
        if (earliestRestorable != null && t.isBefore(earliestRestorable)) {
            t = Instant.ofEpochSecond(earliestRestorable.getEpochSecond() + (earliestRestorable.getNano() > 0 ? 1 : 0));
        }
        long ahead = t.toEpochMilli() - System.currentTimeMillis();
        if (ahead > 0) {
            try {
                Thread.sleep(ahead + 10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TableExports.ExportFailedException("the backup was interrupted");
            }
        }
        return t;
    }

    /** The export of backup {@code backupId} into {@code folder} (the backup's own, ending in '/') of the vault. */
    public static ExportTableToPointInTimeRequest request(
            String tableArn, Instant exportTime, String backupId, String bucket, String folder) {
        return ExportTableToPointInTimeRequest.builder()
                .tableArn(tableArn)
                .exportTime(exportTime)
                .clientToken(TableExports.clientToken(tableArn + "/backup/" + backupId))
                .s3Bucket(bucket)
                .s3Prefix(folder.substring(0, folder.length() - 1))
                .exportFormat(ExportFormat.DYNAMODB_JSON)
                .exportType(ExportType.FULL_EXPORT)
                .build();
    }
}
