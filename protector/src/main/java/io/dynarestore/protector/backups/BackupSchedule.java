package io.dynarestore.protector.backups;

import io.dynarestore.contracts.BackupIds;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Which scheduled backup a table is due. Slots are aligned to the epoch ({@code every} long), and
 * the backup of a slot has an id made from the slot, so a slot is backed up once: a replica that
 * restarts, or takes the table over, finds the slot's backup listed and takes none. The slot before
 * the latest is taken first, late, when its backup is not listed: when it was begun (its replica
 * died, or the table moved, during it), and when it was never begun although the policy held through
 * it (no replica held the table for the whole slot, as in a takeover slower than the interval). Older
 * slots are left behind: one late backup catches up an outage, the latest slot is due after it.
 */
public final class BackupSchedule {

    static final String SCHEDULED = "-scheduled";

    private final VaultCatalog catalog;

    public BackupSchedule(VaultCatalog catalog) {
        this.catalog = catalog;
    }

    /** The start of the slot that holds {@code now}. */
    public static Instant slotOf(Instant now, Duration every) {
        return ProtectionSet.slotOf(now, every);
    }

    /** The id of a slot's backup: sortable by time, the same on every replica. */
    public static String backupIdOf(Instant slot) {
        return BackupIds.stamp(slot) + SCHEDULED;
    }

    /** Whether the policy asks for an on-demand backup the vault does not list yet. */
    public boolean onDemandDue(ProtectionSet policy) {
        return policy.backupRequestedAt() != null
                && catalog.findBackup(policy.account(), policy.region(), policy.table(), policy.onDemandBackupId())
                        .isEmpty();
    }

    /**
     * The slot due at {@code now}, if its backup is not in the vault yet: the one before it when that one's
     * backup is not listed and was begun, or was missed while the policy held; else the slot holding {@code now}.
     */
    public Optional<Instant> due(ProtectionSet policy, Instant now) {
        Instant slot = policy.slotAt(now);
        if (listed(policy, slot)) {
            return Optional.empty();
        }
        Instant previous = policy.slotAt(slot.minusMillis(1));
        boolean policyHeld = policy.occurredAt() != null && !previous.isBefore(policy.occurredAt());
        if (!listed(policy, previous)
                && (policyHeld
                        || catalog.backupBegun(
                                policy.account(), policy.region(), policy.table(), backupIdOf(previous)))) {
            return Optional.of(previous);
        }
        return Optional.of(slot);
    }

    private boolean listed(ProtectionSet policy, Instant slot) {
        return catalog.findBackup(policy.account(), policy.region(), policy.table(), backupIdOf(slot))
                .isPresent();
    }
}
