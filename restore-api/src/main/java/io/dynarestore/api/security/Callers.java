package io.dynarestore.api.security;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.access.Role;
import java.util.EnumSet;
import java.util.Set;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The caller of the current request: its name and roles, as the security filters established
 * them. Controllers use it for the checks that depend on a request's content (the destination
 * of a restore), which the URL rules cannot see.
 */
public final class Callers {

    private Callers() {}

    /** The caller's name, or {@code null} when the request is not authenticated (public pages). */
    public static String name() {
        Authentication a = SecurityContextHolder.getContext().getAuthentication();
        return a == null || !a.isAuthenticated() || "anonymousUser".equals(a.getName()) ? null : a.getName();
    }

    /** The caller's roles. */
    public static Set<Role> roles() {
        var roles = EnumSet.noneOf(Role.class);
        Authentication a = SecurityContextHolder.getContext().getAuthentication();
        if (a != null) {
            for (GrantedAuthority g : a.getAuthorities()) {
                Role.parse(g.getAuthority()).ifPresent(roles::add);
            }
        }
        return roles;
    }

    /** Throws a 403 problem naming the roles missing for {@code what} unless the caller holds all of {@code required}. */
    public static void require(Set<Role> required, String what) {
        var missing = Access.missing(required, roles());
        if (!missing.isEmpty()) {
            throw new ApiProblem(403, "FORBIDDEN", forbidden(what, Access.describe(missing)), null);
        }
    }

    /** The detail of a 403: what needs which role, that the caller lacks it, and who grants it. */
    static String forbidden(String what, String roles) {
        return what + " needs the role " + roles + ", which " + (name() == null ? "the caller" : "'" + name() + "'")
                + " does not have; ask an administrator to grant it (a claim of the token, or the roles of the API key)";
    }
}
