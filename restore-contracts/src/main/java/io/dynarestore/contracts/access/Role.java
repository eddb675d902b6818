package io.dynarestore.contracts.access;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a caller may do, the same on REST and on Kafka. Roles do not imply one another: a
 * caller that may restore in place is not thereby allowed to read the catalog.
 */
public enum Role {
    /** The catalog (tables, backups, windows, accounts) and the tasks (restores, their events). */
    READ("read"),
    /** Restores into new tables and into files, their previews, downloads and cancels. */
    RESTORE("restore"),
    /** Restores into the source table itself (IN_PLACE), which overwrite and delete its items. */
    RESTORE_IN_PLACE("restore-in-place"),
    /** Restores into another existing table (EXISTING_TABLE), which overwrite its items. */
    RESTORE_OVERWRITE("restore-overwrite"),
    /** Restores whose source or destination is in an account other than the installation's default. */
    CROSS_ACCOUNT("cross-account"),
    /**
     * Registering native DynamoDB exports as backups or point-in-time history: what a later
     * restore, in place included, takes as the truth about a table.
     */
    REGISTER_EXPORTS("register-exports"),
    /**
     * Setting or ending a table's protection policy and taking on-demand backups: what decides
     * which seconds of a table can be restored later, and what retention deletes.
     */
    PROTECT("protect");

    private final String id;

    Role(String id) {
        this.id = id;
    }

    /** The name used in JWT claims, API-key settings and principal settings, such as {@code restore-in-place}. */
    public String id() {
        return id;
    }

    /** The role named {@code name} ({@code restore-in-place}, {@code RESTORE_IN_PLACE} and so on). */
    public static Optional<Role> parse(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        return Arrays.stream(values()).filter(r -> r.id.equals(n)).findFirst();
    }

    /** The role named {@code name} in a setting, or an error naming {@code where} and the roles there are. */
    public static Role of(String name, String where) {
        return parse(name)
                .orElseThrow(() -> new IllegalArgumentException(where + " has unknown role '" + name
                        + "'; roles are "
                        + Arrays.stream(values()).map(Role::id).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return id;
    }
}
