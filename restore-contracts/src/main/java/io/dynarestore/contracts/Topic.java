package io.dynarestore.contracts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Every Kafka topic of the system, with its default partition count.
 *
 * <p>Rule: {@link #REQUESTS}, {@link #COMMANDS} and {@link #STATUS} must have the same partition
 * count. They are all keyed by restore id, and the planner that owns partition {@code p} of one
 * owns partition {@code p} of the others (co-partitioning). A dead-letter topic is the source
 * name plus {@code .DLT} and has as many partitions as its source (spring-kafka's convention).
 */
public enum Topic {
    /** Restore requests, from restore-api or any upstream Kafka client. Key: restore id. */
    REQUESTS("restore.requests", 6),
    /** Commands on running restores (cancel, rollback). Key: restore id. */
    COMMANDS("restore.commands", 6),
    /** Work items for item-writers, one per segment. Key: {@code restoreId/segment}. */
    SEGMENTS("restore.segments", 24),
    /** Work items for exporters. Key: {@code restoreId/segment}. */
    EXPORTS("restore.exports", 6),
    /**
     * Parts of large point-in-time deltas, shared by every restore-planner replica (group
     * {@code <planner group>-planning}): whichever replica is assigned a record builds that slice of
     * the key-hash space into the vault. Key: {@code restoreId/part}.
     */
    PLANNING("restore.planning", 12),
    /** Every status event of every restore. Key: restore id. */
    STATUS("restore.status", 6),
    /**
     * Passcode-protected download links: issued links and passcode tries, read from the start by
     * every restore-api replica and by the notifier. One partition, so that every replica sees the
     * tries of a link in the same order. Key: link id. Readable only by restore-api and notifier.
     */
    LINKS("restore.links", 1),
    /** What the notifier delivered (or gave up on), so that a redelivered event is not sent twice. Key: restore id. */
    NOTIFICATIONS("restore.notifications", 6),
    /**
     * Protection policies, compacted: the latest {@code ProtectionSet} of each table is the truth
     * every protector replica reads at start; a tombstone ends a table's protection. The protector
     * replica that owns partition {@code p} protects the tables keyed to it. Key: {@code account/region/table}.
     */
    PROTECTION("restore.protection", 6),
    /** What the protector did: backups, change-log flushes and gaps, expiries. Key: {@code account/region/table}. */
    PROTECTION_EVENTS("restore.protection.events", 6),
    /**
     * Segments of the protector's SCAN backups, shared by every protector replica (group
     * {@code protector-scans}): whichever replica is assigned a record scans that segment into the
     * vault. Key: {@code account/region/table/backupId/segment}, so that a segment asked for twice
     * is scanned by one consumer, one request after the other.
     */
    PROTECTION_SCANS("restore.protection.scans", 12);

    /** How long {@link #LINKS} keeps its records: longer than any link may live. */
    public static final Duration LINKS_RETENTION = Duration.ofDays(30);

    private final String topicName;
    private final int defaultPartitions;

    Topic(String topicName, int defaultPartitions) {
        this.topicName = topicName;
        this.defaultPartitions = defaultPartitions;
    }

    public String topicName() {
        return topicName;
    }

    /** The dead-letter topic of this topic. */
    public String dlt() {
        return topicName + ".DLT";
    }

    public int defaultPartitions() {
        return defaultPartitions;
    }

    /** All topic names, dead-letter topics included. */
    public static List<String> allNames() {
        var names = new ArrayList<String>();
        for (Topic t : values()) {
            names.add(t.topicName);
            names.add(t.dlt());
        }
        return List.copyOf(names);
    }

    /** Key of a table on {@link #PROTECTION} and {@link #PROTECTION_EVENTS}. */
    public static String tableKey(String account, String region, String table) {
        return account + "/" + region + "/" + table;
    }

    /** Key of a segment of a backup on {@link #PROTECTION_SCANS}. */
    public static String scanKey(String account, String region, String table, String backupId, int segment) {
        return tableKey(account, region, table) + "/" + backupId + "/" + segment;
    }

    /** Key of a work item on {@link #SEGMENTS} or {@link #EXPORTS}. */
    public static String workKey(String restoreId, int segment) {
        return restoreId + "/" + segment;
    }
}
