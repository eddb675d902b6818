package io.dynarestore.api.catalog;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.api.security.Callers;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.access.Role;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.aws.AwsClients;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A table named in a URL, with its account and region (defaults from the configuration),
 * checked: a table name DynamoDB takes, an account and region of the registry, and a caller
 * holding the roles to read that account's catalog (or to do {@code what} there).
 */
public record TableRefs(String table, String account, String region) {

    /** For reading the catalog: {@code read}, and {@code cross-account} for another account. */
    static TableRefs of(String table, String account, String region, AwsClients aws) {
        return of(table, account, region, aws, Access::toReadCatalog, "Reading the catalog of account");
    }

    /**
     * @param rule the roles it takes to do {@code what} in an account, given the account and the
     *             installation's default (one of {@link Access}'s rules)
     */
    public static TableRefs of(
            String table,
            String account,
            String region,
            AwsClients aws,
            BiFunction<String, String, Set<Role>> rule,
            String what) {
        if (!table.matches("[A-Za-z0-9_.-]{3,255}")) {
            throw new ApiProblem(
                    400,
                    "INVALID_REQUEST",
                    "'" + table + "' is not a DynamoDB table name: use 3 to " + "255 of A-Z a-z 0-9 _ - .",
                    List.of(new FieldError("/table", "not a table name")));
        }
        String acct = account != null ? account : aws.defaultAccount();
        String reg = region != null ? region : aws.defaultRegion();
        Callers.require(rule.apply(acct, aws.defaultAccount()), what + " " + acct);
        if (!aws.allows(acct, reg)) {
            throw new ApiProblem(
                    422,
                    "UNKNOWN_ACCOUNT",
                    "Account " + acct + " region " + reg + " is not in the account registry.",
                    null);
        }
        return new TableRefs(table, acct, reg);
    }
}
