package io.dynarestore.contracts.access;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rule that decides which roles a restore request needs, applied alike by restore-api to
 * REST callers and by the planner to Kafka principals: the destination's role (restore for a new
 * table or a file, restore-overwrite for an existing table, restore-in-place for the source
 * table), plus cross-account when the source or the destination names an account other than the
 * installation's default.
 */
public final class Access {

    /**
     * The Kafka header that names who publishes a request on {@code restore.requests}; restore-api
     * sets it to its own principal. Kafka does not check it: ACLs decide who may write the topic.
     */
    public static final String PRINCIPAL_HEADER = "dynarestore-principal";

    private Access() {
    }

    /** The roles {@code request} needs; {@code defaultAccount} is where requests without an account go. */
    public static Set<Role> requiredFor(RestoreRequested request, String defaultAccount) {
        var roles = EnumSet.noneOf(Role.class);
        Destination d = request.destination();
        String destinationAccount = null;
        if (d instanceof Destination.ExistingTable e) {
            roles.add(Role.RESTORE_OVERWRITE);
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
        String sourceAccount = request.source() == null ? null : request.source().account();
        if (foreign(sourceAccount, defaultAccount) || foreign(destinationAccount, defaultAccount)) {
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

    private static boolean foreign(String account, String defaultAccount) {
        return account != null && !account.isBlank() && !account.equals(defaultAccount);
    }
}
