package io.dynarestore.api.catalog;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.aws.AwsClients;
import java.util.List;

/** A table named in a URL, with its account and region (defaults from the configuration), checked. */
record TableRefs(String table, String account, String region) {

    static TableRefs of(String table, String account, String region, AwsClients aws) {
        if (!table.matches("[A-Za-z0-9_.-]{3,255}")) {
            throw new ApiProblem(400, "INVALID_REQUEST", "'" + table + "' is not a DynamoDB table name: use 3 to "
                    + "255 of A-Z a-z 0-9 _ - .", List.of(new FieldError("/table", "not a table name")));
        }
        String acct = account != null ? account : aws.defaultAccount();
        String reg = region != null ? region : aws.defaultRegion();
        if (!aws.allows(acct, reg)) {
            throw new ApiProblem(422, "UNKNOWN_ACCOUNT", "Account " + acct + " region " + reg
                    + " is not in the account registry.", null);
        }
        return new TableRefs(table, acct, reg);
    }
}
