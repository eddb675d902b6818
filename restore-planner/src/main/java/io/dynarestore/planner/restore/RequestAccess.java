package io.dynarestore.planner.restore;

import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.access.MessageSignature;
import io.dynarestore.contracts.access.Role;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.planner.PlannerProperties;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Authorizes a message published on Kafka by its proven principal, with the same rule
 * restore-api applies to REST callers ({@link Access}). Rule: the {@code dynarestore-principal}
 * header is only a claim; the message is that principal's when its {@link MessageSignature}
 * verifies with one of the principal's keys, and otherwise unidentified (whatever it claims),
 * with {@code planner.access.unidentified}'s roles. A vouching principal (restore-api) names the
 * authenticated caller it acts for in the signed {@code dynarestore-caller} header.
 */
final class RequestAccess {

    /** Who published a message, as far as it is proven. */
    record Identity(String principal, String caller, boolean proven) {
        /** Who submitted, for RestoreAccepted.principal: the vouched-for caller, the principal, or unidentified. */
        String submitter() {
            if (!proven) {
                return RestoreAccepted.UNIDENTIFIED;
            }
            return caller != null ? caller : principal;
        }
    }

    private final Map<String, Set<Role>> principals = new HashMap<>();
    private final Map<String, List<String>> keys;
    private final List<String> vouching;
    private final Set<Role> unidentified = EnumSet.noneOf(Role.class);
    private final String defaultAccount;

    RequestAccess(PlannerProperties.Access settings, String defaultAccount) {
        settings.principals().forEach((who, roles) -> principals.put(who, parse(roles)));
        unidentified.addAll(parse(settings.unidentified()));
        this.keys = settings.keys();
        this.vouching = settings.vouching();
        this.defaultAccount = defaultAccount;
    }

    private static Set<Role> parse(List<String> roles) {
        var set = EnumSet.noneOf(Role.class);
        roles.forEach(r -> set.add(Role.of(r, "planner.access")));
        return set;
    }

    /** Who published {@code record}: the claimed principal if its signature verifies, else unidentified. */
    Identity identify(ConsumerRecord<String, byte[]> record) {
        String claimed = text(record.headers().lastHeader(Access.PRINCIPAL_HEADER));
        String caller = text(record.headers().lastHeader(MessageSignature.CALLER_HEADER));
        String signature = text(record.headers().lastHeader(MessageSignature.HEADER));
        if (claimed == null || signature == null) {
            return new Identity(claimed, null, false);
        }
        boolean valid = MessageSignature.verify(
                keys.getOrDefault(claimed, List.of()), record.topic(), claimed, caller, record.value(), signature);
        return new Identity(claimed, valid && vouching.contains(claimed) ? caller : null, valid);
    }

    /** Why {@code request} is refused, or {@code null} when its proven principal holds every role it needs. */
    String refusal(ConsumerRecord<String, byte[]> record, RestoreRequested request) {
        return refusal(identify(record), request);
    }

    String refusal(Identity who, RestoreRequested request) {
        Set<Role> held = who.proven() ? principals.getOrDefault(who.principal(), Set.of()) : unidentified;
        Set<Role> missing = Access.missing(Access.requiredFor(request, defaultAccount), held);
        if (missing.isEmpty()) {
            return null;
        }
        String subject;
        String fix;
        if (who.proven()) {
            subject = "principal '" + who.principal() + "'";
            fix = "roles are granted in planner.access.principals.";
        } else if (who.principal() != null) {
            subject = "a message that claims principal '" + who.principal() + "' without a valid "
                    + MessageSignature.HEADER + " (so it is unidentified)";
            fix = "sign it with the principal's key in planner.access.keys (docs/security.md), or use POST /restores.";
        } else {
            subject = "a message without a " + Access.PRINCIPAL_HEADER + " header";
            fix = "publish with the header naming your principal and its " + MessageSignature.HEADER
                    + ", or use POST /restores.";
        }
        return "This restore needs the role " + Access.describe(missing) + ", which " + subject + " does not have; "
                + fix;
    }

    /** Whether messages without a valid signature would get any role. */
    boolean unidentifiedHaveRoles() {
        return !unidentified.isEmpty();
    }

    private static String text(Header h) {
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
