package io.dynarestore.protector.drills;

import io.dynarestore.contracts.protection.ProtectionSet;
import java.time.Instant;

/** Object Mother: protection policies of the table {@code orders} with hourly drills. */
final class DrillPolicies {

    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    static final String TABLE = "orders";

    private DrillPolicies() {}

    /** Daily backups kept a week, hourly drills of {@code source}, the policy set at {@code at}. */
    static ProtectionSet setAt(Instant at, ProtectionSet.DrillSource source) {
        return new ProtectionSet(
                "e-" + at.toEpochMilli(),
                ProtectionSet.SCHEMA_VERSION,
                at,
                ACCOUNT,
                REGION,
                TABLE,
                new ProtectionSet.Backups(null, "P1D", "P7D", null),
                null,
                "t",
                null,
                new ProtectionSet.Drills("PT1H", source, null, null));
    }
}
