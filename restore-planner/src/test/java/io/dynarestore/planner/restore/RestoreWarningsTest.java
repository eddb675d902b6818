package io.dynarestore.planner.restore;

import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Scope;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RestoreWarningsTest {

    static final Scope.Records RECORDS =
            new Scope.Records(List.of(new Scope.KeyFilter(new Scope.Condition("EqualTo", List.of("a")), null)), null);

    @Test
    void warnsThatAnInPlaceRestoreDeletesWhatWasCreatedSinceAndSaysHowToUndoIt() {
        var warnings = RestoreWarnings.of(aRestore("r1").inPlace().build(), Instant.parse("2026-11-30T10:15:42Z"));
        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("made equal to the table as they were at " + "2026-11-30T10:15:42Z")
                .contains("items created since are deleted")
                .contains("POST /restores/r1/rollback")
                .contains("\"dryRun\": true");
    }

    @Test
    void warnsThatARecordRestoreOverwritesTheMatchingItems() {
        var warnings = RestoreWarnings.of(
                aRestore("r2")
                        .scope(RECORDS)
                        .into(new Destination.ExistingTable(null, null, "orders-live"))
                        .build(),
                null);
        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("Items of orders-live that match the filters will be overwritten")
                .contains("as they were in backup b1");
    }

    @Test
    void givesNoWarningForANewTableADryRunOrAFullRestoreIntoAnEmptyTable() {
        assertThat(RestoreWarnings.of(aRestore("r3").build(), null)).isEmpty();
        assertThat(RestoreWarnings.of(aRestore("r4").inPlace().dryRun().build(), null))
                .isEmpty();
        assertThat(RestoreWarnings.of(
                        aRestore("r5")
                                .into(new Destination.ExistingTable(null, null, "empty"))
                                .build(),
                        null))
                .isEmpty();
    }
}
