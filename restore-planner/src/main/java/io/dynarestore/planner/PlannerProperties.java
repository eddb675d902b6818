package io.dynarestore.planner;

import io.dynarestore.boot.VaultReaderSettings;
import io.dynarestore.contracts.access.MessageSignature;
import io.dynarestore.contracts.access.Role;
import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultSettings;
import io.dynarestore.core.webhooks.WebhookSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of restore-planner, under {@code planner}.
 *
 * @param aws         accounts, regions, endpoints and the vault's S3
 * @param vault       the bucket and root prefix of the vault
 * @param topics      replication and partition counts of the topics it creates
 * @param group       its consumer group
 * @param workers     threads that carry out plan steps (table creation, dispatch)
 * @param tableActive how long a created table may take to become ACTIVE
 * @param pitr        point-in-time restores
 * @param fleet       planning work shared by the planner replicas
 * @param exports     large CSV exports split over the exporter replicas
 * @param strategy    how the planner chooses between item writes and DynamoDB's import
 * @param capacity    raising an existing table's write capacity for a restore
 * @param warmThroughput pre-warming a new on-demand table for the restore's writes
 * @param cancelGrace how long a cancelled restore waits for its writers to report their segments stopped
 *                    before it is declared cancelled with the counts known then
 * @param progressInterval how often a running restore's RestoreProgressed is published (when items moved)
 * @param access      which roles the publishers of requests on Kafka hold
 * @param rollback    rollbacks of restores from their undo journals
 * @param webhooks    where webhooks may go (the rule restore-api and the notifier apply too)
 * @param maxCapacityUnits the most read or write capacity units a restored table may ask for
 * @param retainEnded how long an ended restore stays in the planner's view; at least the retention of
 *                    {@code restore.status}
 */
@ConfigurationProperties("planner")
public record PlannerProperties(
        AwsSettings aws,
        VaultSettings vault,
        TopicDefinitions topics,
        @DefaultValue("restore-planner") String group,
        @DefaultValue("4") int workers,
        @DefaultValue("10m") Duration tableActive,
        @DefaultValue Pitr pitr,
        @DefaultValue Fleet fleet,
        @DefaultValue Exports exports,
        @DefaultValue Strategy strategy,
        @DefaultValue Capacity capacity,
        @DefaultValue WarmThroughput warmThroughput,
        @DefaultValue("30s") Duration cancelGrace,
        @DefaultValue("5s") Duration progressInterval,
        @DefaultValue Access access,
        @DefaultValue Rollback rollback,
        @DefaultValue WebhookSettings webhooks,
        @DefaultValue("40000") long maxCapacityUnits,
        @DefaultValue("8d") Duration retainEnded)
        implements VaultReaderSettings {

    /**
     * Rollbacks, which the planner that owns the restore carries out itself.
     *
     * @param writeUnitsPerSecond the most write units per second a rollback uses (halved while the
     *                            table throttles); the table's own traffic shares its capacity
     */
    public record Rollback(@DefaultValue("200") long writeUnitsPerSecond) {}

    /**
     * Roles of the principals that publish on {@code restore.requests} and {@code restore.commands},
     * named by a message's {@code dynarestore-principal} header and proven by its
     * {@code dynarestore-signature} (Kafka ACLs decide who may write the topics at all).
     *
     * @param principals   roles per principal; restore-api, which checks its own callers, holds them all
     * @param keys         the signing keys of each principal (several while one is rotated); a principal is
     *                     recognised only by a valid signature, so every principal with roles needs one
     * @param vouching     principals whose {@code dynarestore-caller} header names who they act for (restore-api)
     * @param unidentified roles of a message without a valid signature (none in production: the planner does not
     *                     start in the prod profile otherwise)
     */
    public record Access(
            Map<String, List<String>> principals,
            Map<String, List<String>> keys,
            List<String> vouching,
            List<String> unidentified) {
        public Access {
            principals = principals == null ? Map.of() : Map.copyOf(principals);
            keys = keys == null ? Map.of() : Map.copyOf(keys);
            vouching = vouching == null ? List.of("restore-api") : List.copyOf(vouching);
            unidentified = unidentified == null ? List.of() : List.copyOf(unidentified);
            principals.forEach((who, roles) -> roles.forEach(r -> Role.of(r, "planner.access.principals." + who)));
            unidentified.forEach(r -> Role.of(r, "planner.access.unidentified"));
            for (var e : principals.entrySet()) {
                var theirs = keys.getOrDefault(e.getKey(), List.of());
                if (!e.getValue().isEmpty() && theirs.isEmpty()) {
                    throw new IllegalArgumentException("planner.access.principals." + e.getKey() + " has roles but "
                            + "planner.access.keys." + e.getKey() + " has no key; a principal is recognised only by "
                            + "its signature (docs/security.md). Give it a key, or remove its roles.");
                }
                for (String key : theirs) {
                    String weak = MessageSignature.weakness(key);
                    if (weak != null) {
                        throw new IllegalArgumentException("a key of planner.access.keys." + e.getKey() + " " + weak);
                    }
                }
            }
        }
    }

    /**
     * Strategy and estimates.
     *
     * @param importFromS3         restore new tables without LSIs by DynamoDB ImportTable (where the
     *                             endpoint implements it; see the account registry's import-table)
     * @param writeUnitsPerSecond  the writers' write budget, for the duration estimate of item writes
     * @param importRate           the import rate assumed for the duration estimate of an import
     * @param importOverhead       the fixed time of an import (table creation, indexes), for its estimate
     * @param poll                 how often an import or a Snap restore under way is checked
     * @param stagingLinesPerFile  items per staged import file
     * @param exportCap            the most items a granular-recovery CSV file holds
     */
    public record Strategy(
            @DefaultValue("true") boolean importFromS3,
            @DefaultValue("1000") long writeUnitsPerSecond,
            @DefaultValue("5MB") DataSize importRate,
            @DefaultValue("5m") Duration importOverhead,
            @DefaultValue("30s") Duration poll,
            @DefaultValue("100000") int stagingLinesPerFile,
            @DefaultValue("5000000") long exportCap) {}

    /**
     * Write capacity of existing provisioned tables.
     *
     * @param raise        whether a restore may raise it (and put it back after)
     * @param writeUnits   the write units a raised table and its GSIs get for the restore
     * @param putBackRetry how long to wait before trying a put-back DynamoDB refused again
     */
    public record Capacity(
            @DefaultValue("true") boolean raise,
            @DefaultValue("1000") long writeUnits,
            @DefaultValue("15m") Duration putBackRetry) {}

    /**
     * Warm throughput of new on-demand tables restored by item writes (ADR 0037): DynamoDB creates
     * an on-demand table able to take 4,000 writes a second at once, and a restore that needs more is
     * created warm enough to finish in {@code targetDuration}, never above {@code maxWriteUnits}.
     * DynamoDB bills warm throughput once, by the units it adds.
     *
     * @param enabled        whether new on-demand tables are created warm for the restore
     * @param targetDuration the time the restore's writes should take at the warm rate
     * @param maxWriteUnits  the most write units per second a new table is warmed to
     */
    public record WarmThroughput(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("1h") Duration targetDuration,
            @DefaultValue("40000") long maxWriteUnits) {}

    /**
     * Point-in-time restores.
     *
     * @param deltaMemory    memory for computing the delta: one bucket of changes is held at a time
     * @param skipKeysLimit  most changed keys writers hold as a skip set (16 bytes each); beyond it
     *                       the base is written first and the delta after it (ADR 0006)
     * @param linesPerFile   lines per staged delta file (one delta segment each)
     * @param backtrack      restore in place to a second by reverting only the keys written since, from the
     *                       change log, where it holds every write since (ADR 0031)
     * @param backtrackMaxLag how far behind the request the change log may end for a backtrack; writes after its
     *                       end are not reverted
     * @param tailWait       how long a backtrack or an undo waits for the change log to reach the moment
     *                       the restore was accepted (the capture flushes its tail for it); 0 does not wait
     * @param nativeTailWait how long a backtrack or an undo of a native incremental change log waits for
     *                       the tail export the protector starts for it (an export runs for minutes)
     * @param nativeShortestWindow the shortest incremental export DynamoDB takes (15 minutes): no tail export
     *                       comes, and none is waited for, when the log ends less than this before its reach
     */
    public record Pitr(
            @DefaultValue("64MB") DataSize deltaMemory,
            @DefaultValue("4000000") long skipKeysLimit,
            @DefaultValue("10000") int linesPerFile,
            @DefaultValue("true") boolean backtrack,
            @DefaultValue("15m") Duration backtrackMaxLag,
            @DefaultValue("30s") Duration tailWait,
            @DefaultValue("20m") Duration nativeTailWait,
            @DefaultValue("15m") Duration nativeShortestWindow) {}

    /**
     * Planning shared by the planner replicas (ADR 0038): a point-in-time delta of more than
     * {@code sharedAbove} changes is split by key hash into one part per replica that reads
     * {@code restore.planning} (at most {@code maxParts}), each built by whichever replica is assigned
     * it; the replica that owns the restore merges them. The sweep of a full in-place restore whose
     * image holds more than {@code sweepSharedAbove} keys is split the same way into parallel Scan
     * segments of the table (ADR 0040).
     *
     * @param sharedAbove       the changes above which a delta is shared; smaller ones are built where the restore is
     * @param maxParts          the most parts a delta or a sweep is split into (at most 64)
     * @param partTimeout       how long the owner waits for every part before the restore fails
     * @param sweepSharedAbove  the image keys above which an in-place sweep is shared; smaller ones are built where the restore is
     */
    public record Fleet(
            @DefaultValue("2000000") long sharedAbove,
            @DefaultValue("16") int maxParts,
            @DefaultValue("30m") Duration partTimeout,
            @DefaultValue("2000000") long sweepSharedAbove) {
        public Fleet {
            if (maxParts < 1 || maxParts > 64) {
                throw new IllegalArgumentException("planner.fleet.max-parts is 1 to 64, not " + maxParts);
            }
        }
    }

    /**
     * Large CSV exports split over the exporter replicas (ADR 0041): the export of a backup of more
     * than {@code splitAbove} items goes out in one part per replica of the exporter's group (at
     * most {@code maxParts}), each a range of the backup's data files, then one merge.
     *
     * @param splitAbove the backup items above which an export is split; smaller ones are exported whole
     * @param group      the exporter's consumer group (exporter.group), whose members are counted
     * @param maxParts   the most parts an export is split into (at most 64)
     */
    public record Exports(
            @DefaultValue("2000000") long splitAbove,
            @DefaultValue("exporter") String group,
            @DefaultValue("16") int maxParts) {
        public Exports {
            if (maxParts < 1 || maxParts > 64) {
                throw new IllegalArgumentException("planner.exports.max-parts is 1 to 64, not " + maxParts);
            }
        }
    }
}
