package io.dynarestore.api.catalog;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.api.security.Callers;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.vault.VaultCatalog;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /tables}: the tables the vault holds backups or history of, in one account and region. */
@RestController
class TablesController {

    private final VaultCatalog catalog;
    private final AwsClients aws;

    TablesController(VaultCatalog catalog, AwsClients aws) {
        this.catalog = catalog;
        this.aws = aws;
    }

    /** The tables of an account and region. */
    record Tables(String account, String region, List<String> tables) {}

    @Operation(
            summary = "Tables with backups or history in the vault",
            description = "Account and region default to the configured ones.")
    @GetMapping(path = "/tables", produces = MediaType.APPLICATION_JSON_VALUE)
    Tables tables(@RequestParam(required = false) String account, @RequestParam(required = false) String region) {
        String a = account == null ? aws.defaultAccount() : account;
        String r = region == null ? aws.defaultRegion() : region;
        Callers.require(Access.toReadCatalog(a, aws.defaultAccount()), "Reading the catalog of account " + a);
        if (!aws.allows(a, r)) {
            throw new ApiProblem(
                    422,
                    "UNKNOWN_ACCOUNT",
                    "Account " + a + " region " + r + " is not in the account "
                            + "registry; GET /accounts lists those that are.",
                    null);
        }
        return new Tables(a, r, catalog.listTables(a, r));
    }
}
