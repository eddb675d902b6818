package io.dynarestore.notifier.alerts;

import io.dynarestore.contracts.webhooks.WebhookTargets;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The operators' alert targets, as configured ({@code notifier.alerts.webhooks} and
 * {@code notifier.alerts.emails}), checked once when the notifier starts.
 *
 * <p>Rule: a target the notifier could never deliver to stops it from starting, with the key and
 * what to change: a misspelt address found at the first failed drill is an alert nobody gets.
 * Webhook URLs follow the one webhook rule ({@link WebhookTargets}); blank entries are ignored.
 */
public record AlertTargets(List<String> webhooks, List<String> emails) {

    public AlertTargets {
        webhooks = nonBlank(webhooks);
        emails = nonBlank(emails);
    }

    /** The targets, or an {@link IllegalArgumentException} naming the first that cannot be used. */
    public static AlertTargets checked(List<String> webhooks, List<String> emails, WebhookTargets rule) {
        var targets = new AlertTargets(webhooks, emails);
        for (int i = 0; i < targets.webhooks().size(); i++) {
            String refusal = rule.refusal(targets.webhooks().get(i));
            if (refusal != null) {
                throw new IllegalArgumentException("notifier.alerts.webhooks[" + i + "] " + refusal);
            }
        }
        for (int i = 0; i < targets.emails().size(); i++) {
            try {
                new InternetAddress(targets.emails().get(i), true);
            } catch (AddressException e) {
                throw new IllegalArgumentException("notifier.alerts.emails[" + i + "] is not an email address ("
                        + e.getMessage() + "); give one address per entry, as in oncall@example.com");
            }
        }
        return targets;
    }

    public boolean isEmpty() {
        return webhooks.isEmpty() && emails.isEmpty();
    }

    private static List<String> nonBlank(List<String> list) {
        var out = new ArrayList<String>();
        for (String s : list == null ? List.<String>of() : list) {
            if (s != null && !s.isBlank()) {
                out.add(s.trim());
            }
        }
        return List.copyOf(out);
    }
}
