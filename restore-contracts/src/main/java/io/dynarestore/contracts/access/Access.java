package io.dynarestore.contracts.access;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Source;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one rule of who may do what, applied alike by restore-api to REST callers and by the
 * planner to Kafka principals.
 *
 * <ul>
 *   <li>A restore needs its destination's role: {@code restore} for a new table or a file,
 *       {@code restore-overwrite} for another existing table, {@code restore-in-place} for the
 *       source table, also when an {@code EXISTING_TABLE} names the source table itself.</li>
 *   <li>Reading a table's catalog or a restore's progress needs {@code read}; reading backup data
 *       (previews, files) needs {@code restore}; registering exports needs {@code register-exports}.</li>
 *   <li>Each of these needs {@code cross-account} besides when an account other than the
 *       installation's default is involved, as source or as destination.</li>
 * </ul>
 */
public final class Access {

    /**
     * The Kafka header that names who publishes a request or command. It is a claim until a valid
     * {@link MessageSignature} of that principal proves it; unproven, the message is unidentified.
     */
    public static final String PRINCIPAL_HEADER = "dynarestore-principal";

    private Access() {}

    /** The roles {@code request} needs; {@code defaultAccount} is where requests without an account go. */
    public static Set<Role> requiredFor(RestoreRequested request, String defaultAccount) {
        var roles = EnumSet.noneOf(Role.class);
        Destination d = request.destination();
        Source source = request.source();
        String destinationAccount = null;
        if (d instanceof Destination.ExistingTable e) {
            roles.add(isSourceTable(e, source, defaultAccount) ? Role.RESTORE_IN_PLACE : Role.RESTORE_OVERWRITE);
            destinationAccount = e.account();
        } else if (d instanceof Destination.InPlace p) {
            roles.add(Role.RESTORE_IN_PLACE);
            destinationAccount = p.account();
        } else {
            roles.add(Role.RESTORE);
            if (d instanceof Destination.NewTable n) {
                destinationAccount = n.account();
            }
        }
        String sourceAccount = source == null ? null : source.account();
        if (foreign(sourceAccount, defaultAccount) || foreign(destinationAccount, defaultAccount)) {
            roles.add(Role.CROSS_ACCOUNT);
        }
        return roles;
    }

    /** Reading the catalog of {@code account} (tables, backups, windows, exports) or the restores it is part of. */
    public static Set<Role> toReadCatalog(String account, String defaultAccount) {
        return with(Role.READ, account, defaultAccount);
    }

    /** Reading the records of a backup of {@code account}: previews and granular-recovery files. */
    public static Set<Role> toReadBackupData(String account, String defaultAccount) {
        return with(Role.RESTORE, account, defaultAccount);
    }

    /** Registering a native export as a backup or as point-in-time history of a table of {@code account}. */
    public static Set<Role> toRegisterExports(String account, String defaultAccount) {
        return with(Role.REGISTER_EXPORTS, account, defaultAccount);
    }

    /** Setting or ending the protection of a table of {@code account}, or backing it up on demand. */
    public static Set<Role> toProtect(String account, String defaultAccount) {
        return with(Role.PROTECT, account, defaultAccount);
    }

    /**
     * Reading the progress of the restore {@code request} started: {@code read}, plus
     * {@code cross-account} when starting it needed that.
     */
    public static Set<Role> toFollow(RestoreRequested request, String defaultAccount) {
        var roles = EnumSet.of(Role.READ);
        if (requiredFor(request, defaultAccount).contains(Role.CROSS_ACCOUNT)) {
            roles.add(Role.CROSS_ACCOUNT);
        }
        return roles;
    }

    /** The roles of {@code required} that {@code held} lacks, in declaration order. */
    public static Set<Role> missing(Set<Role> required, Collection<Role> held) {
        var missing = EnumSet.noneOf(Role.class);
        missing.addAll(required);
        missing.removeAll(held);
        return missing;
    }

    /** {@code restore-overwrite and cross-account}, for messages. */
    public static String describe(Set<Role> roles) {
        return roles.stream().map(Role::id).collect(Collectors.joining(" and "));
    }

    /**
     * Whether an existing-table destination is the source table itself (absent account and
     * region are the source's, an absent source account the default): overwriting it is an
     * in-place restore, whatever the request calls it.
     */
    static boolean isSourceTable(Destination.ExistingTable e, Source source, String defaultAccount) {
        if (source == null || e.tableName() == null) {
            return false;
        }
        String sourceAccount = source.account() != null ? source.account() : defaultAccount;
        String account = e.account() != null ? e.account() : sourceAccount;
        String region = e.region() != null ? e.region() : source.region();
        return e.tableName().equals(source.table())
                && Objects.equals(account, sourceAccount)
                && Objects.equals(region, source.region());
    }

    private static Set<Role> with(Role role, String account, String defaultAccount) {
        var roles = EnumSet.of(role);
        if (foreign(account, defaultAccount)) {
            roles.add(Role.CROSS_ACCOUNT);
        }
        return roles;
    }

    private static boolean foreign(String account, String defaultAccount) {
        return account != null && !account.isBlank() && !account.equals(defaultAccount);
    }
}
