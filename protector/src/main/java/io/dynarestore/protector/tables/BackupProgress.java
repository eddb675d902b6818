package io.dynarestore.protector.tables;

import io.dynarestore.contracts.protection.BackupMethod;
import io.dynarestore.contracts.protection.BackupProgressed;
import io.dynarestore.contracts.protection.ProtectionSet;
import java.time.Duration;
import java.util.function.LongConsumer;

/** A SCAN backup's items read so far, told as a {@link BackupProgressed} at most every {@link #EVERY}. */
final class BackupProgress implements LongConsumer {

    /** How often a running SCAN backup tells how far it is. */
    static final Duration EVERY = Duration.ofSeconds(5);

    private final TableServices services;
    private final ProtectionSet p;
    private final String backupId;
    private final Long tableItems;
    private long nextAt = System.nanoTime() + EVERY.toNanos();

    BackupProgress(TableServices services, ProtectionSet p, String backupId) {
        this.services = services;
        this.p = p;
        this.backupId = backupId;
        Long count = null;
        try {
            count = services.dynamo(p)
                    .describeTable(b -> b.tableName(p.table()))
                    .table()
                    .itemCount();
        } catch (RuntimeException e) {
            // the count is a hint; the backup goes on without it
        }
        this.tableItems = count;
    }

    @Override
    public synchronized void accept(long itemsRead) {
        long now = System.nanoTime();
        if (now - nextAt >= 0) {
            nextAt = now + EVERY.toNanos();
            services.events()
                    .publish(BackupProgressed.of(
                            p.account(), p.region(), p.table(), backupId, BackupMethod.SCAN, itemsRead, tableItems));
        }
    }
}
