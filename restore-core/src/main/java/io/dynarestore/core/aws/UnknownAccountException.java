package io.dynarestore.core.aws;

import java.util.List;

/** An account or region that the configured registry does not allow. */
public class UnknownAccountException extends RuntimeException {
    public UnknownAccountException(String account, String region, List<AwsSettings.Account> known) {
        super("account " + account + " in region " + region + " is not in the account registry (known: "
                + known.stream()
                        .map(a -> a.id() + " "
                                + (a.regions() == null ? "[]" : a.regions().keySet()))
                        .toList()
                + "); add it under accounts in the configuration, or restore into a registered account");
    }
}
