package io.dynarestore.planner.restore;

import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.access.Role;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.planner.PlannerProperties;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Authorizes a request published on Kafka by the principal its {@code dynarestore-principal}
 * header names, with the same rule restore-api applies to REST callers ({@link Access}).
 */
final class RequestAccess {

    private final Map<String, Set<Role>> principals = new HashMap<>();
    private final Set<Role> unidentified = EnumSet.noneOf(Role.class);
    private final String defaultAccount;

    RequestAccess(PlannerProperties.Access settings, String defaultAccount) {
        settings.principals().forEach((who, roles) -> principals.put(who, parse(roles)));
        unidentified.addAll(parse(settings.unidentified()));
        this.defaultAccount = defaultAccount;
    }

    private static Set<Role> parse(java.util.List<String> roles) {
        var set = EnumSet.noneOf(Role.class);
        roles.forEach(r -> set.add(Role.of(r, "planner.access")));
        return set;
    }

    /** Why {@code request} is refused, or {@code null} when its principal holds every role it needs. */
    String refusal(ConsumerRecord<String, byte[]> record, RestoreRequested request) {
        var header = record.headers().lastHeader(Access.PRINCIPAL_HEADER);
        String principal = header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
        Set<Role> held = principal == null ? unidentified : principals.getOrDefault(principal, Set.of());
        Set<Role> missing = Access.missing(Access.requiredFor(request, defaultAccount), held);
        if (missing.isEmpty()) {
            return null;
        }
        String who = principal == null ? "a request without a " + Access.PRINCIPAL_HEADER + " header"
                : "principal '" + principal + "'";
        return "This restore needs the role " + Access.describe(missing) + ", which " + who + " does not have. "
                + (principal == null ? "Publish with the header naming your principal, or use POST /restores; "
                : "") + "roles are granted in planner.access.principals.";
    }
}
