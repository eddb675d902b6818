package io.dynarestore.protector.exports;

import io.dynarestore.core.vault.ExportLocation;
import io.dynarestore.core.vault.ManifestSummary;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ExportTableToPointInTimeRequest;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryDescription;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;

/**
 * Runs one export to its end: starts it (again, after a takeover: the client token makes the second
 * call return the first export) and asks DescribeExport every {@code poll} until it completes, for
 * at most {@code timeout}. A failed export, or one that outlasts the timeout, is an
 * {@link ExportFailedException} naming DynamoDB's failure code and message.
 */
public final class TableExports {

    private final VaultCatalog catalog;
    private final Duration poll;
    private final Duration timeout;

    /** A completed export: where its files lie, and the items its summary manifest counts. */
    public record Completed(ExportLocation location, long itemCount) {}

    public TableExports(VaultCatalog catalog, Duration poll, Duration timeout) {
        this.catalog = catalog;
        this.poll = poll;
        this.timeout = timeout;
    }

    /** The token of the export for {@code purpose} (a table and a backup id or window): the same on every replica. */
    public static String clientToken(String purpose) {
        return UUID.nameUUIDFromBytes(purpose.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** The table's continuous backups, whose point-in-time recovery every export needs; refused with the fix when it is off. */
    public static ContinuousBackupsDescription recovery(DynamoDbClient dynamo, String table) {
        ContinuousBackupsDescription continuous =
                dynamo.describeContinuousBackups(b -> b.tableName(table)).continuousBackupsDescription();
        PointInTimeRecoveryDescription pitr = continuous.pointInTimeRecoveryDescription();
        if (pitr == null || pitr.pointInTimeRecoveryStatus() != PointInTimeRecoveryStatus.ENABLED) {
            throw new ExportFailedException("table " + table + " has no point-in-time recovery, which a native "
                    + "export needs; enable it (aws dynamodb update-continuous-backups --table-name " + table
                    + " --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true) or take SCAN backups");
        }
        return continuous;
    }

    /** Starts the export and returns, once it has completed, where it lies and how many items it holds. */
    public Completed run(DynamoDbClient dynamo, ExportTableToPointInTimeRequest request) {
        ExportDescription export = dynamo.exportTableToPointInTime(request).exportDescription();
        Instant giveUp = Instant.now().plus(timeout);
        while (export.exportStatus() == ExportStatus.IN_PROGRESS) {
            if (Instant.now().isAfter(giveUp)) {
                throw new ExportFailedException("export " + export.exportArn() + " was still in progress after "
                        + timeout + "; it is looked for again with the same client token");
            }
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ExportFailedException("waiting for export " + export.exportArn() + " was interrupted");
            }
            String arn = export.exportArn();
            export = dynamo.describeExport(b -> b.exportArn(arn)).exportDescription();
        }
        if (export.exportStatus() != ExportStatus.COMPLETED) {
            throw new ExportFailedException("export " + export.exportArn() + " " + export.exportStatusAsString() + ": "
                    + export.failureCode() + " " + export.failureMessage());
        }
        // its files lie in the folder of its summary manifest
        String manifest = export.exportManifest();
        var where = new ExportLocation(export.s3Bucket(), manifest.substring(0, manifest.lastIndexOf('/') + 1));
        String arn = export.exportArn();
        long items = catalog.read(where.bucket(), where.prefix() + VaultLayout.MANIFEST_SUMMARY, ManifestSummary.class)
                .map(m -> m.itemCount() == null ? 0L : m.itemCount())
                .orElseThrow(() -> new ExportFailedException("export " + arn + " completed without a "
                        + VaultLayout.MANIFEST_SUMMARY + " at " + where.uri()));
        return new Completed(where, items);
    }

    /** An export could not be taken; the message says why. */
    public static final class ExportFailedException extends RuntimeException {
        public ExportFailedException(String message) {
            super(message);
        }
    }
}
