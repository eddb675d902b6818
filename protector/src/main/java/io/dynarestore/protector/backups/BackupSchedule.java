package io.dynarestore.protector.backups;

import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * Which scheduled backup a table is due. Slots are aligned to the epoch ({@code every} long), and
 * the backup of a slot has an id made from the slot, so a slot is backed up once: a replica that
 * restarts, or takes the table over, finds the slot's backup listed and takes none. A slot whose
 * backup is missing when the next slot begins is left behind: the latest slot is the one due.
 */
public final class BackupSchedule {

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    static final String SCHEDULED = "-scheduled";
    static final String ON_DEMAND = "-on-demand";

    private final VaultCatalog catalog;

    public BackupSchedule(VaultCatalog catalog) {
        this.catalog = catalog;
    }

    /** The start of the slot that holds {@code now}. */
    public static Instant slotOf(Instant now, Duration every) {
        long length = Math.max(1, every.toMillis());
        return Instant.ofEpochMilli(Math.floorDiv(now.toEpochMilli(), length) * length);
    }

    /** The id of a slot's backup: sortable by time, the same on every replica. */
    public static String backupIdOf(Instant slot) {
        return ID_TIME.format(slot) + SCHEDULED;
    }

    /** The id of the on-demand backup asked for at {@code requestedAt}: the same however often the request is read. */
    public static String onDemandIdOf(Instant requestedAt) {
        return ID_TIME.format(requestedAt) + ON_DEMAND;
    }

    /** Whether the policy asks for an on-demand backup the vault does not list yet. */
    public boolean onDemandDue(ProtectionSet policy) {
        return policy.backupRequestedAt() != null && catalog.findBackup(policy.account(), policy.region(),
                policy.table(), onDemandIdOf(policy.backupRequestedAt())).isEmpty();
    }

    /** The slot due at {@code now}, if its backup is not in the vault yet. */
    public Optional<Instant> due(ProtectionSet policy, Instant now) {
        Instant slot = slotOf(now, policy.backupInterval());
        boolean taken = catalog.findBackup(policy.account(), policy.region(), policy.table(), backupIdOf(slot))
                .isPresent();
        return taken ? Optional.empty() : Optional.of(slot);
    }
}
