package io.dynarestore.planner.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.restore.RestoreValidator.Target;
import java.time.Instant;
import java.util.List;

/**
 * What a restore will change in a table that holds items, and how to see it first and undo it
 * after, in words for the person who asked for it. A new table and a dry run change nothing
 * there: no warning.
 */
public final class RestoreWarnings {

    private RestoreWarnings() {}

    /** The warnings of {@code request}, restored to {@code pointInTime} ({@code null}: from its backup). */
    public static List<String> of(RestoreRequested request, Instant pointInTime) {
        if (request.destination() instanceof Destination.NewTable || request.dry()) {
            return List.of();
        }
        Target target = Target.of(request);
        String at = pointInTime != null
                ? "as they were at " + pointInTime
                : "as they were in backup " + request.source().backupId();
        String undo = " Each item's current image is saved first in the restore's undo journal: POST /restores/"
                + request.restoreId() + "/rollback puts them back, also after a cancel or a failure, but discards "
                + "what other writers change in those items meanwhile. Run it with \"dryRun\": true first to see "
                + "what would change.";
        if (request.scope() instanceof Scope.Records) {
            return List.of("Items of " + target.tableName() + " that match the filters will be overwritten with the "
                    + "items " + at + "." + undo);
        }
        if (request.destination() instanceof Destination.InPlace) {
            return List.of("Table " + target.tableName() + " will be made equal to the table " + at + ": items "
                    + "changed since are overwritten and items created since are deleted." + undo);
        }
        return List.of();
    }
}
