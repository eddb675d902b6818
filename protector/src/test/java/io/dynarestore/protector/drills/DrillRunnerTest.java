package io.dynarestore.protector.drills;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.protection.DrillFailed;
import io.dynarestore.contracts.protection.ProtectionEvent;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreFailed;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DrillRunnerTest {

    static final Instant SLOT = Instant.parse("2026-12-07T04:00:00Z");

    @Test
    void namesTheDrillsRestoreAndScratchTableFromTheSlotTheSameOnEveryReplica() {
        var p = ProtectionSet.of("000000000000", "us-east-1", "orders", null, null, "t");

        assertThat(DrillRunner.restoreId(p, SLOT))
                .startsWith("drill-20261207T040000Z-")
                .isEqualTo(DrillRunner.restoreId(
                        ProtectionSet.of("000000000000", "us-east-1", "orders", null, null, "u"), SLOT));
        assertThat(DrillRunner.drillId(DrillRunner.restoreId(p, SLOT))).isEqualTo("20261207T040000Z-drill");
        assertThat(DrillRunner.scratchTable("orders", SLOT)).isEqualTo("orders-drill-20261207t040000z");
        assertThat(DrillRunner.scratchTable("x".repeat(255), SLOT)).hasSize(255).endsWith("-drill-20261207t040000z");
    }

    @Test
    void reportsAFailedDrillAndLeavesATableThatIsNotADrillsAlone() {
        // Given a drill whose accepted request names a destination that is not a drill's scratch table
        var events = new ArrayList<ProtectionEvent>();
        var runner = runnerWithoutAws(events);
        var request = new RestoreRequested(
                "drill-20261207T040000Z-abc",
                RestoreRequested.TYPE,
                1,
                "e",
                SLOT,
                "protector",
                new Source("000000000000", "us-east-1", "orders", "b-1", null, null),
                new Scope.Full(),
                new Destination.NewTable("000000000000", "us-east-1", "orders", null),
                null,
                null);
        runner.onStatus(new RestoreAccepted("e1", request.restoreId(), 1, SLOT, request, "protector", null, List.of()));

        // When its restore fails
        runner.onStatus(RestoreFailed.of(request.restoreId(), "a data file is corrupt", 0));

        // Then the drill failed, saying why, and the table it named was not deleted (no client was even asked)
        assertThat(events).singleElement().isInstanceOf(DrillFailed.class);
        var failed = (DrillFailed) events.get(0);
        assertThat(failed.reason()).contains("a data file is corrupt").contains("is not a drill's: left alone");
        assertThat(failed.drillId()).isEqualTo("20261207T040000Z-drill");
    }

    @Test
    void aDrillThatCannotStartIsAFailedDrillNotTheGuardsTrouble() {
        // Given a runner whose vault cannot be read
        var events = new ArrayList<ProtectionEvent>();
        var runner = runnerWithoutAws(events);
        var p = ProtectionSet.of("000000000000", "us-east-1", "orders", null, null, "t")
                .withDrills(new ProtectionSet.Drills("PT1H", null, null, null));

        // When its drill is started
        runner.start(p, SLOT);

        // Then no exception leaves it, and the drill failed saying it could not start
        assertThat(events).singleElement().isInstanceOf(DrillFailed.class);
        assertThat(((DrillFailed) events.get(0)).reason()).startsWith("the drill could not start");
    }

    @Test
    void ignoresRestoresThatAreNotDrills() {
        var events = new ArrayList<ProtectionEvent>();
        var runner = runnerWithoutAws(events);

        runner.onStatus(RestoreFailed.of("r-1", "whatever", 0));

        assertThat(events).isEmpty();
    }

    /** A runner that reports into {@code events}, runs its ends at once, and has no vault or DynamoDB to reach. */
    static DrillRunner runnerWithoutAws(List<ProtectionEvent> events) {
        return new DrillRunner(
                null,
                null,
                null,
                events::add,
                key -> true,
                Runnable::run,
                new SimpleMeterRegistry(),
                Clock.systemUTC());
    }
}
