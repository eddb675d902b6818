package io.dynarestore.contracts.status;

import java.util.List;

/**
 * What a restore into an existing provisioned table does to its write capacity: raise it for
 * the restore ({@code raise}, from {@code current} to {@code target}) and put it back at the
 * end, or leave it alone, and why. A raise is planned only when DynamoDB's decrease quota lets
 * the put-back happen.
 */
public record CapacityPlan(boolean raise, String reason, List<CapacityUnits> current, List<CapacityUnits> target) {

    public CapacityPlan {
        current = current == null ? List.of() : List.copyOf(current);
        target = target == null ? List.of() : List.copyOf(target);
    }

    public static CapacityPlan unchanged(String reason, List<CapacityUnits> current) {
        return new CapacityPlan(false, reason, current, current);
    }
}
