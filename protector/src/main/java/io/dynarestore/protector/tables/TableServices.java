package io.dynarestore.protector.tables;

import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.pitr.NativeChainTail;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.ProtectorProperties;
import io.dynarestore.protector.backups.BackupSchedule;
import io.dynarestore.protector.backups.NativeExportBackups;
import io.dynarestore.protector.backups.ScanBackups;
import io.dynarestore.protector.changelog.NativeIncrementalExports;
import io.dynarestore.protector.changelog.StreamCapture;
import io.dynarestore.protector.drills.DrillRunner;
import io.dynarestore.protector.retention.Expiry;
import io.dynarestore.protector.retention.RestoresInProgress;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The collaborators every {@link TableGuard} of this replica shares. */
record TableServices(
        AwsClients aws,
        VaultLayout layout,
        BackupSchedule schedule,
        ScanBackups scans,
        NativeExportBackups nativeBackups,
        NativeIncrementalExports incrementals,
        Expiry expiry,
        RestoresInProgress restores,
        ExecutorService backupPool,
        ExecutorService flushPool,
        ExecutorService exportPool,
        ExecutorService expiryPool,
        ProtectionEvents events,
        DrillRunner drills,
        ProtectorMetrics metrics,
        ProtectorProperties.Capture capture,
        ProtectorProperties.Retention retention,
        ProtectorProperties.Exports exports,
        Clock clock) {

    DynamoDbClient dynamo(ProtectionSet p) {
        return aws.dynamo(p.account(), p.region());
    }

    boolean capacityEnforced(ProtectionSet p) {
        var region = aws.region(p.account(), p.region());
        return region == null || region.enforcesCapacity();
    }

    /** The id prefixes of the change logs the protector records: the Streams capture's and the native chain's. */
    List<String> ownExportPrefixes() {
        return List.of(StreamCapture.EXPORT_PREFIX, NativeChainTail.EXPORT_ID_PREFIX);
    }

    /** The capture of shard group {@code index} of the policy's groups (of every shard when there is one group). */
    StreamCapture newCapture(ProtectionSet p, int index, StreamCapture.Listener listener) {
        var s = new StreamCapture.Settings(
                p.flushInterval(), capture.settle(), capture.maxBuffered(), capture.linesPerFile());
        var group = p.shardGroups() > 1 ? new ExportMetadata.ShardGroup(index, p.shardGroups()) : null;
        return new StreamCapture(
                aws.streams(p.account(), p.region()),
                dynamo(p),
                aws.s3(),
                layout,
                p.account(),
                p.region(),
                p.table(),
                group,
                s,
                clock,
                flushPool,
                listener);
    }
}
