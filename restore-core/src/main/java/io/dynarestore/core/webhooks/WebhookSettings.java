package io.dynarestore.core.webhooks;

import io.dynarestore.contracts.webhooks.WebhookTargets;
import java.util.List;

/**
 * Where webhooks may go, as restore-api and the planner are configured ({@code *.webhooks}); the
 * notifier applies the same rule with its own settings when it delivers.
 *
 * @param allowHttp whether plain http webhook URLs are taken (the local profile only)
 * @param allow     hosts, addresses and CIDR ranges inside the network that webhooks may still go to
 */
public record WebhookSettings(boolean allowHttp, List<String> allow) {

    /** The rule with the system's resolver, as intake applies it. */
    public WebhookAddresses addresses() {
        return WebhookAddresses.system(new WebhookTargets(allowHttp, allow));
    }
}
