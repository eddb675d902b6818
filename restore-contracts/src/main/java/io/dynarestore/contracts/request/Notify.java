package io.dynarestore.contracts.request;

import java.util.List;

/** Who hears of the restore's end: email addresses and webhook URLs. */
public record Notify(List<String> emails, List<String> webhooks) {}
