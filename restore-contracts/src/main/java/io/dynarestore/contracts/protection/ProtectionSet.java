package io.dynarestore.contracts.protection;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.dynarestore.contracts.BackupIds;
import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.Topic;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's protection policy: full backups every {@code backups.every}, kept for
 * {@code backups.retention}, and a change log (its point-in-time history) kept as long as it
 * extends a kept backup; {@code backupRequestedAt}, when set, asks for one on-demand backup (see
 * {@link #requestingBackup}), and {@code drills}, when set, restore drills (ADR 0044). {@link #problems()}
 * is the one rule for what a policy may say; restore-api and the protector both apply it.
 */
public record ProtectionSet(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        Backups backups,
        ChangeLog changeLog,
        String setBy,
        Instant backupRequestedAt,
        Drills drills)
        implements ProtectionPolicyEvent {

    /** A policy without drills (every policy before ADR 0044). */
    public ProtectionSet(
            String eventId,
            Integer schemaVersion,
            Instant occurredAt,
            String account,
            String region,
            String table,
            Backups backups,
            ChangeLog changeLog,
            String setBy,
            Instant backupRequestedAt) {
        this(
                eventId,
                schemaVersion,
                occurredAt,
                account,
                region,
                table,
                backups,
                changeLog,
                setBy,
                backupRequestedAt,
                null);
    }

    /**
     * Restore drills (ADR 0044): every {@code every}, the latest backup (or a random restorable second) is
     * restored into a scratch table of {@code writeUnits} provisioned WCU, verified, and the table deleted.
     *
     * @param source     LATEST_BACKUP (default) or RANDOM_SECOND
     * @param maxItems   a backup with more items is not drilled (a failed drill says so); default 1,000,000
     * @param writeUnits the scratch table's write capacity, the most a drill writes per second; default 100
     */
    public record Drills(String every, DrillSource source, Long maxItems, Long writeUnits) {

        public static final long DEFAULT_MAX_ITEMS = 1_000_000;
        public static final long DEFAULT_WRITE_UNITS = 100;
        public static final long MAX_WRITE_UNITS = 40_000;

        @JsonIgnore
        public DrillSource sourceOrDefault() {
            return source == null ? DrillSource.LATEST_BACKUP : source;
        }

        @JsonIgnore
        public long maxItemsOrDefault() {
            return maxItems == null ? DEFAULT_MAX_ITEMS : maxItems;
        }

        @JsonIgnore
        public long writeUnitsOrDefault() {
            return writeUnits == null ? DEFAULT_WRITE_UNITS : writeUnits;
        }
    }

    /** What a drill restores. */
    public enum DrillSource {
        LATEST_BACKUP,
        RANDOM_SECOND
    }

    /** The shortest backup interval (a Scan of a big table takes longer than this anyway). */
    public static final Duration MIN_BACKUP_INTERVAL = Duration.ofSeconds(10);
    /** The bounds of a native incremental export's period, as DynamoDB sets them. */
    public static final Duration MIN_INCREMENTAL = Duration.ofMinutes(15);

    public static final Duration MAX_INCREMENTAL = Duration.ofHours(24);

    /**
     * @param method          how backups are taken
     * @param every           the schedule: one backup per slot of this length, slots aligned to the epoch
     * @param retention       how long each backup stays restorable
     * @param readSharePercent the share of the table's read capacity a SCAN may use (on-demand: of 4,000 RCU)
     * @param cron            instead of {@code every}: a five-field cron schedule in UTC ({@link CronSchedule}),
     *                        each firing the start of a slot
     */
    public record Backups(BackupMethod method, String every, String retention, Integer readSharePercent, String cron) {
        public Backups(BackupMethod method, String every, String retention, Integer readSharePercent) {
            this(method, every, retention, readSharePercent, null);
        }
    }

    /**
     * @param method      where the change log comes from
     * @param flushEvery  how often captured writes become an incremental export (STREAMS), or the
     *                    period of each native incremental export (NATIVE_INCREMENTAL)
     * @param shardGroups STREAMS: into how many groups the stream's shards are split, each captured by
     *                    its own protector replica into its own chain (null or 1: one capture); a table
     *                    whose writes outgrow one replica's capture needs more than one
     */
    public record ChangeLog(ChangeLogMethod method, String flushEvery, Integer shardGroups) {
        public ChangeLog(ChangeLogMethod method, String flushEvery) {
            this(method, flushEvery, null);
        }
    }

    /** The most shard groups a table's capture may be split into. */
    public static final int MAX_SHARD_GROUPS = 32;

    public static ProtectionSet of(
            String account, String region, String table, Backups backups, ChangeLog changeLog, String setBy) {
        return new ProtectionSet(
                Envelope.newEventId(),
                SCHEMA_VERSION,
                Envelope.now(),
                account,
                region,
                table,
                backups,
                changeLog,
                setBy,
                null);
    }

    /**
     * The same policy asking for an on-demand backup taken at or after {@code at}: the owner
     * takes one unless the vault lists it already, so that a restart takes it once, not twice.
     */
    public ProtectionSet requestingBackup(Instant at, String by) {
        return new ProtectionSet(
                Envelope.newEventId(),
                SCHEMA_VERSION,
                Envelope.now(),
                account,
                region,
                table,
                backups,
                changeLog,
                by,
                at,
                drills);
    }

    /** The same policy with {@code drills} (null: none). */
    public ProtectionSet withDrills(Drills drills) {
        return new ProtectionSet(
                eventId,
                schemaVersion,
                occurredAt,
                account,
                region,
                table,
                backups,
                changeLog,
                setBy,
                backupRequestedAt,
                drills);
    }

    /** The start of the drill slot that holds {@code now}; null without drills. */
    public Instant drillSlotAt(Instant now) {
        return drills == null ? null : slotOf(now, Duration.parse(drills.every()));
    }

    /** The id of the on-demand backup this policy asks for, or null: the same however often the request is read. */
    @JsonIgnore
    public String onDemandBackupId() {
        return backupRequestedAt == null ? null : BackupIds.stamp(backupRequestedAt) + "-on-demand";
    }

    @Override
    @JsonIgnore
    public String subject() {
        return Topic.tableKey(account, region, table);
    }

    /** The interval of an {@code every} schedule, or null for a cron one. */
    @JsonIgnore
    public Duration backupInterval() {
        return backups.every() == null ? null : Duration.parse(backups.every());
    }

    /** The start of the backup slot that holds {@code now}: of an {@code every} schedule, or the latest cron firing. */
    public Instant slotAt(Instant now) {
        if (backups.cron() != null) {
            Instant fired = CronSchedule.parse(backups.cron()).latestAtOrBefore(now);
            return fired == null ? Instant.EPOCH : fired;
        }
        return slotOf(now, backupInterval());
    }

    /** The start of the slot of length {@code every} that holds {@code now}, slots aligned to the epoch. */
    public static Instant slotOf(Instant now, Duration every) {
        long length = Math.max(1, every.toMillis());
        return Instant.ofEpochMilli(Math.floorDiv(now.toEpochMilli(), length) * length);
    }

    @JsonIgnore
    public Duration backupRetention() {
        return Duration.parse(backups.retention());
    }

    @JsonIgnore
    public Duration flushInterval() {
        return changeLog == null || changeLog.flushEvery() == null
                ? Duration.ofMinutes(1)
                : Duration.parse(changeLog.flushEvery());
    }

    /** Into how many shard groups the Streams capture is split (1: one capture of every shard). */
    @JsonIgnore
    public int shardGroups() {
        return changeLog == null || changeLog.shardGroups() == null ? 1 : changeLog.shardGroups();
    }

    @JsonIgnore
    public ChangeLogMethod changeLogMethod() {
        return changeLog == null || changeLog.method() == null ? ChangeLogMethod.NONE : changeLog.method();
    }

    /** What is wrong with this policy, each naming the field and the fix; empty when it may be applied. */
    public List<String> problems() {
        var problems = new ArrayList<String>();
        if (backups == null || backups.method() == null) {
            problems.add("/backups/method: say how backups are taken, SCAN or NATIVE_EXPORT.");
            return problems;
        }
        Duration every = null;
        if (backups.cron() != null) {
            if (backups.every() != null) {
                problems.add("/backups/cron: give a schedule once, as every or as cron, not both.");
            }
            try {
                CronSchedule.parse(backups.cron());
            } catch (IllegalArgumentException e) {
                problems.add("/backups/cron: " + e.getMessage() + ".");
            }
        } else {
            every = duration(problems, "/backups/every", backups.every());
        }
        duration(problems, "/backups/retention", backups.retention());
        if (every != null && every.compareTo(MIN_BACKUP_INTERVAL) < 0) {
            problems.add("/backups/every: " + backups.every() + " is shorter than the shortest interval, "
                    + MIN_BACKUP_INTERVAL + ".");
        }
        Integer share = backups.readSharePercent();
        if (share != null && (share < 1 || share > 100)) {
            problems.add("/backups/readSharePercent: " + share + " is not a share of the table's reads (1 to 100).");
        }
        if (changeLog != null && changeLog.method() != null && changeLog.method() != ChangeLogMethod.NONE) {
            Duration flush = duration(problems, "/changeLog/flushEvery", changeLog.flushEvery());
            if (flush != null
                    && changeLog.method() == ChangeLogMethod.NATIVE_INCREMENTAL
                    && (flush.compareTo(MIN_INCREMENTAL) < 0 || flush.compareTo(MAX_INCREMENTAL) > 0)) {
                problems.add("/changeLog/flushEvery: a native incremental export spans 15 minutes to 24 hours, not "
                        + changeLog.flushEvery() + ".");
            }
            if (flush != null && flush.compareTo(Duration.ofSeconds(1)) < 0) {
                problems.add("/changeLog/flushEvery: flush at most once a second, not every " + flush + ".");
            }
        }
        drillProblems(problems);
        Integer groups = changeLog == null ? null : changeLog.shardGroups();
        if (groups != null && (groups < 1 || groups > MAX_SHARD_GROUPS)) {
            problems.add("/changeLog/shardGroups: " + groups + " is not a number of shard groups (1 to "
                    + MAX_SHARD_GROUPS + ").");
        } else if (groups != null && groups > 1 && changeLogMethod() != ChangeLogMethod.STREAMS) {
            problems.add("/changeLog/shardGroups: only a STREAMS change log is split into shard groups; remove it "
                    + "or set method STREAMS.");
        }
        return problems;
    }

    private void drillProblems(List<String> problems) {
        if (drills == null) {
            return;
        }
        Duration every = duration(problems, "/drills/every", drills.every());
        if (every != null && every.compareTo(MIN_BACKUP_INTERVAL) < 0) {
            problems.add("/drills/every: " + drills.every() + " is shorter than the shortest interval, "
                    + MIN_BACKUP_INTERVAL + ".");
        }
        if (drills.maxItems() != null && drills.maxItems() < 1) {
            problems.add("/drills/maxItems: " + drills.maxItems() + " items is no budget; give 1 or more.");
        }
        if (drills.writeUnits() != null && (drills.writeUnits() < 1 || drills.writeUnits() > Drills.MAX_WRITE_UNITS)) {
            problems.add("/drills/writeUnits: " + drills.writeUnits() + " is not a table's write capacity (1 to "
                    + Drills.MAX_WRITE_UNITS + ").");
        }
    }

    private static Duration duration(List<String> problems, String pointer, String text) {
        if (text == null) {
            problems.add(pointer + ": missing; give an ISO-8601 duration such as PT1H or P35D.");
            return null;
        }
        try {
            Duration d = Duration.parse(text);
            if (d.isNegative() || d.isZero()) {
                problems.add(pointer + ": " + text + " must be longer than zero.");
                return null;
            }
            return d;
        } catch (DateTimeParseException e) {
            problems.add(pointer + ": '" + text + "' is not an ISO-8601 duration such as PT1H or P35D.");
            return null;
        }
    }
}
