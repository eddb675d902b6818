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
import io.dynarestore.core.pitr.PitrCoverage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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
        runner.start(p, SLOT, false);

        // Then no exception leaves it, and the drill failed saying it could not start
        assertThat(events).singleElement().isInstanceOf(DrillFailed.class);
        assertThat(((DrillFailed) events.get(0)).reason()).startsWith("the drill could not start");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void aRandomSecondDrillRestoresASecondInsideAWindowTheSameOnEveryReplica(long seed) {
        // Given the restorable windows of a table, some shorter than a second or starting within one
        var random = new Random(seed);
        for (int turn = 0; turn < 200; turn++) {
            var windows = new ArrayList<PitrCoverage.Window>();
            Instant at = Instant.parse("2026-12-01T00:00:00Z").plusMillis(random.nextInt(1_000_000));
            for (int w = 0, n = 1 + random.nextInt(4); w < n; w++) {
                Instant end = at.plusMillis(random.nextInt(4) == 0 ? random.nextInt(999) : random.nextInt(3_600_000));
                windows.add(new PitrCoverage.Window(at, end));
                at = end.plusMillis(1 + random.nextInt(600_000));
            }
            Instant slot = SLOT.plusSeconds(random.nextInt(1_000_000));

            // When a drill of a slot draws its second
            Instant t = DrillRunner.randomSecond(windows, slot);

            // Then it lies inside one window, whole unless the window holds no whole second, and every
            // replica draws the same
            assertThat(windows)
                    .as("windows %s, drawn %s", windows, t)
                    .anySatisfy(w -> assertThat(t).isBetween(w.start(), w.end()));
            var holder = windows.stream()
                    .filter(w -> !t.isBefore(w.start()) && !t.isAfter(w.end()))
                    .findFirst()
                    .orElseThrow();
            if (holder.end().getEpochSecond() > holder.start().getEpochSecond()) {
                assertThat(t.getNano()).isZero();
            }
            assertThat(DrillRunner.randomSecond(List.copyOf(windows), slot)).isEqualTo(t);
        }
    }

    @Test
    void everyWindowAndBothEndsOfOneHaveTheirTurnOverManyDrills() {
        // Given three windows of very different lengths
        var windows = List.of(
                new PitrCoverage.Window(Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-01T00:00:02Z")),
                new PitrCoverage.Window(Instant.parse("2026-12-02T00:00:00Z"), Instant.parse("2026-12-02T06:00:00Z")),
                new PitrCoverage.Window(Instant.parse("2026-12-03T00:00:00Z"), Instant.parse("2026-12-03T00:00:00Z")));

        // When 600 hourly drills draw their seconds
        var drawn = new ArrayList<Instant>();
        for (int h = 0; h < 600; h++) {
            drawn.add(DrillRunner.randomSecond(windows, SLOT.plusSeconds(3_600L * h)));
        }

        // Then each window is drawn, and the short one's first and last seconds both
        for (var w : windows) {
            assertThat(drawn).anySatisfy(t -> assertThat(t).isBetween(w.start(), w.end()));
        }
        assertThat(drawn).contains(windows.get(0).start(), windows.get(0).end());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "a backup is being taken and the policy is a day old,   false, true,  1440, true",
        "no backup is being taken but the policy is 59 min old, false, false, 59,   true",
        "no backup is being taken and the policy is 61 min old, false, false, 61,   false",
        "backups were taken (all expired now) and one runs,     true,  true,  5,    false",
        "backups were taken and the policy is new,              true,  false, 1,    false"
    })
    void aDrillWaitsForTheFirstBackupOnlyWhileItIsStillDue(
            String when, boolean anyBackup, boolean backupRunning, long policyAgeMinutes, boolean waits) {
        // Given a policy set policyAgeMinutes before the drill's slot
        var p = DrillPolicies.setAt(SLOT.minusSeconds(60 * policyAgeMinutes), ProtectionSet.DrillSource.LATEST_BACKUP);

        // When a drill that found nothing to restore asks whether the first backup is still due
        boolean due = DrillRunner.firstBackupStillDue(p, SLOT, anyBackup, backupRunning);

        // Then it waits only while no backup was ever taken and the first one runs or is new
        assertThat(due).as(when).isEqualTo(waits);
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
