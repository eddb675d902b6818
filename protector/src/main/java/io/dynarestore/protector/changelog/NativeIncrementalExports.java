package io.dynarestore.protector.changelog;

import io.dynarestore.contracts.BackupIds;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.pitr.NativeChainTail;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.exports.TableExports;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ExportFormat;
import software.amazon.awssdk.services.dynamodb.model.ExportTableToPointInTimeRequest;
import software.amazon.awssdk.services.dynamodb.model.ExportType;
import software.amazon.awssdk.services.dynamodb.model.ExportViewType;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryDescription;

/**
 * The change log from DynamoDB's own incremental exports (INCREMENTAL_EXPORT, NEW_AND_OLD_IMAGES),
 * one per period, chained without gaps: each starts where the last one ended, the first at a
 * backup, and each is exported once its end is inside the table's point-in-time recovery window.
 * Such an export holds each key's last write only, so the vault marks it compacted: restorable at
 * its end, not inside it (ADR 0006). When recovery no longer reaches the chain's end (it was turned
 * off and on), the chain restarts at the first backup taken since, and the seconds between are a gap.
 */
public final class NativeIncrementalExports {

    /** [{@code from}, {@code to}): one export's window. */
    public record Window(Instant from, Instant to) {}

    /**
     * What one step did: the export it recorded, the gap it had to leave before it, or that no
     * backup inside the recovery window exists to start the chain at (one should be taken).
     */
    public record Outcome(ExportMetadata exported, Window gap, boolean needsBase) {
        static final Outcome NOTHING_DUE = new Outcome(null, null, false);
    }

    private final VaultCatalog catalog;
    private final TableExports exports;

    public NativeIncrementalExports(VaultCatalog catalog, TableExports exports) {
        this.catalog = catalog;
        this.exports = exports;
    }

    /**
     * The next window of a chain that ended at {@code chainEnd} (null: no export yet), given the
     * times of the table's backups and the recovery window [{@code earliest}, {@code latest}];
     * empty while its end is not yet inside the recovery window or no backup can start it.
     */
    public static Optional<Window> next(
            Instant chainEnd, List<Instant> backups, Instant earliest, Instant latest, Duration period) {
        Instant from = chainEnd;
        if (from == null || from.isBefore(earliest)) {
            from = backups.stream()
                    .filter(t -> !t.isBefore(earliest) && (chainEnd == null || t.isAfter(chainEnd)))
                    .min(Instant::compareTo)
                    .orElse(null);
        }
        if (from == null) {
            return Optional.empty();
        }
        Instant to = from.plus(period);
        return to.isAfter(latest) ? Optional.empty() : Optional.of(new Window(from, to));
    }

    /**
     * The tail export a restore asks for, by {@link NativeChainTail}'s rule; empty when the chain has
     * no end inside the recovery window (the regular step starts it) or the window would be too short.
     */
    public static Optional<Window> tail(
            Instant chainEnd, Instant target, Instant earliest, Instant latest, Duration shortest) {
        return NativeChainTail.end(chainEnd, target, earliest, latest, shortest).map(to -> new Window(chainEnd, to));
    }

    /** Records the next export of the table's chain if one is due; blocks while DynamoDB exports it. */
    public Outcome step(DynamoDbClient dynamo, ProtectionSet policy) {
        return step(dynamo, policy, null, Duration.ZERO);
    }

    /**
     * Records the next export of the table's chain if one is due, or else, with a {@code tailTarget},
     * the {@link #tail} export towards it; blocks while DynamoDB exports it.
     */
    public Outcome step(DynamoDbClient dynamo, ProtectionSet policy, Instant tailTarget, Duration shortest) {
        String account = policy.account();
        String region = policy.region();
        String table = policy.table();
        List<ExportMetadata> chain = catalog.listExports(account, region, table).stream()
                .filter(e -> e.exportId().startsWith(NativeChainTail.EXPORT_ID_PREFIX))
                .toList();
        Instant chainEnd = chain.isEmpty() ? null : chain.get(chain.size() - 1).to();
        Instant now = Instant.now();
        List<Instant> backups = catalog.listBackups(account, region, table).stream()
                .filter(b -> !b.expiredAt(now))
                .map(BackupSummary::takenAt)
                .toList();
        PointInTimeRecoveryDescription pitr =
                TableExports.recovery(dynamo, table).pointInTimeRecoveryDescription();
        Optional<Window> due = next(
                chainEnd,
                backups,
                pitr.earliestRestorableDateTime(),
                pitr.latestRestorableDateTime(),
                policy.flushInterval());
        if (due.isEmpty() && tailTarget != null) {
            due = tail(
                    chainEnd, tailTarget, pitr.earliestRestorableDateTime(), pitr.latestRestorableDateTime(), shortest);
        }
        if (due.isEmpty()) {
            boolean noBase = (chainEnd == null || chainEnd.isBefore(pitr.earliestRestorableDateTime()))
                    && backups.stream()
                            .noneMatch(t -> !t.isBefore(pitr.earliestRestorableDateTime())
                                    && (chainEnd == null || t.isAfter(chainEnd)));
            return noBase ? new Outcome(null, null, true) : Outcome.NOTHING_DUE;
        }
        Window w = due.get();
        String exportId = NativeChainTail.EXPORT_ID_PREFIX + BackupIds.stamp(w.to());
        VaultLayout layout = catalog.layout();
        String folder = layout.exportPrefix(account, region, table, exportId);
        String tableArn = dynamo.describeTable(b -> b.tableName(table)).table().tableArn();
        TableExports.Completed done = exports.run(dynamo, request(tableArn, w, exportId, layout.bucket(), folder));
        var metadata = new ExportMetadata(
                ExportMetadata.FORMAT_VERSION,
                exportId,
                account,
                region,
                table,
                w.from(),
                w.to(),
                true,
                done.itemCount(),
                done.location());
        catalog.put(folder + VaultLayout.EXPORT_JSON, metadata);
        Window gap = chainEnd != null && w.from().isAfter(chainEnd) ? new Window(chainEnd, w.from()) : null;
        return new Outcome(metadata, gap, false);
    }

    /** The export of window {@code w} as change-log export {@code exportId} into {@code folder} (ending in '/'). */
    public static ExportTableToPointInTimeRequest request(
            String tableArn, Window w, String exportId, String bucket, String folder) {
        return ExportTableToPointInTimeRequest.builder()
                .tableArn(tableArn)
                .clientToken(TableExports.clientToken(tableArn + "/changelog/" + exportId))
                .s3Bucket(bucket)
                .s3Prefix(folder.substring(0, folder.length() - 1))
                .exportFormat(ExportFormat.DYNAMODB_JSON)
                .exportType(ExportType.INCREMENTAL_EXPORT)
                .incrementalExportSpecification(s -> s.exportFromTime(w.from())
                        .exportToTime(w.to())
                        .exportViewType(ExportViewType.NEW_AND_OLD_IMAGES))
                .build();
    }
}
