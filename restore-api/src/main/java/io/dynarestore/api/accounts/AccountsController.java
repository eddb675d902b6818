package io.dynarestore.api.accounts;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.aws.ExternalIds;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /accounts}: the registry of accounts and regions restores may use, with the role each is
 * reached through and the ExternalId its trust policy must demand. The ExternalId is not a secret
 * (it only stops the confused deputy), so it is listed for operators to copy into the trust policy.
 */
@RestController
class AccountsController {

    private final AwsClients aws;

    AccountsController(AwsClients aws) {
        this.aws = aws;
    }

    @Operation(
            summary = "Accounts and regions restores may use",
            description = "For each account: the role assumed in it (none: the services' own credentials), the "
                    + "ExternalId to put in that role's trust policy, and its regions with what their endpoints "
                    + "implement.")
    @GetMapping(path = "/accounts", produces = MediaType.APPLICATION_JSON_VALUE)
    Accounts accounts() {
        AwsSettings settings = aws.settings();
        var accounts = settings.accounts().stream()
                .map(a -> {
                    var regions = new TreeMap<String, RegionEntry>();
                    (a.regions() == null ? Map.<String, AwsSettings.Region>of() : a.regions()).forEach((name, r) -> {
                        var region = r == null ? new AwsSettings.Region(null, null, null, null, null) : r;
                        regions.put(
                                name,
                                new RegionEntry(
                                        region.dynamodbEndpoint() == null
                                                ? null
                                                : region.dynamodbEndpoint().toString(),
                                        region.supportsImportTable(),
                                        region.supportsNativeBackups(),
                                        region.enforcesCapacity()));
                    });
                    String externalId;
                    try {
                        externalId = ExternalIds.forAccount(settings, a);
                    } catch (IllegalStateException e) {
                        externalId = null; // no secret configured: restores into this account are refused with the fix
                    }
                    return new AccountEntry(a.id(), a.roleArn(), externalId, regions);
                })
                .toList();
        return new Accounts(settings.defaultAccount(), settings.defaultRegion(), accounts);
    }

    /** The registry. */
    record Accounts(String defaultAccount, String defaultRegion, List<AccountEntry> accounts) {}

    /**
     * An account: {@code roleArn} is {@code null} when the services use their own credentials
     * there; {@code externalId} is what the role's trust policy must require as sts:ExternalId.
     */
    record AccountEntry(String id, String roleArn, String externalId, Map<String, RegionEntry> regions) {}

    /**
     * A region: its endpoint ({@code null}: AWS's), whether it implements ImportTable and native
     * backups, and whether it enforces provisioned capacity.
     */
    record RegionEntry(String dynamodbEndpoint, boolean importTable, boolean nativeBackups, boolean enforcedCapacity) {}
}
