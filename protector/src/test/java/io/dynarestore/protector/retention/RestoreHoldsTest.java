package io.dynarestore.protector.retention;

import static io.dynarestore.protector.retention.RestoreEvents.ACCOUNT;
import static io.dynarestore.protector.retention.RestoreEvents.REGION;
import static io.dynarestore.protector.retention.RestoreEvents.TABLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RestoreHoldsTest {

    private static final Instant NOW = Instant.now();
    private final RestoreHolds holds = new RestoreHolds(100, Duration.ofDays(7));

    private static BackupSummary backup(String id, Instant takenAt) {
        return new BackupSummary(
                id, takenAt, takenAt.plus(Duration.ofDays(1)), ACCOUNT, REGION, TABLE, 10, 1_000, null);
    }

    private boolean held(BackupSummary backup) {
        return holds.of(ACCOUNT, REGION, TABLE, NOW).holds(backup);
    }

    @Test
    void aRestoreOfABackupHoldsThatBackupOnlyUntilItCompletes() {
        // Given a restore of backup b-2 accepted
        holds.fold(RestoreEvents.acceptedOfBackup("r-1", "b-2"));

        // Then b-2 is held and b-1 is not
        assertThat(held(backup("b-2", NOW.minusSeconds(7_200)))).isTrue();
        assertThat(held(backup("b-1", NOW.minusSeconds(9_000)))).isFalse();

        // When it completes, nothing is held
        holds.fold(RestoreEvents.completed("r-1"));
        assertThat(held(backup("b-2", NOW.minusSeconds(7_200)))).isFalse();
        assertThat(holds.size()).isZero();
    }

    @Test
    void aPointInTimeRestoreHoldsEveryBackupAtOrBeforeItsSecondUntilPlannedThenOnlyItsBase() {
        // Given a restore to T accepted, before its plan names the base
        Instant t = NOW.minusSeconds(3_600);
        holds.fold(RestoreEvents.acceptedAt("r-2", t));

        // Then every backup taken at or before T is held, none after
        assertThat(held(backup("b-old", t.minusSeconds(86_400)))).isTrue();
        assertThat(held(backup("b-at", t))).isTrue();
        assertThat(held(backup("b-after", t.plusSeconds(1)))).isFalse();

        // When the plan names b-at as its base, only b-at is held
        holds.fold(RestoreEvents.plannedOn("r-2", "b-at", t));
        assertThat(held(backup("b-at", t))).isTrue();
        assertThat(held(backup("b-old", t.minusSeconds(86_400)))).isFalse();

        // and a failure lets go of it
        holds.fold(RestoreEvents.failed("r-2"));
        assertThat(held(backup("b-at", t))).isFalse();
    }

    @Test
    void aLatestRestoreWithoutItsSecondHoldsTheWholeTableOfAnyAccountUntilPlanned() {
        // Given a restore of "latest" that left account and region to the defaults
        holds.fold(RestoreEvents.acceptedOfLatest("r-3"));

        // Then any backup of that table is held, in the default account, but not another table's
        assertThat(held(backup("b-new", NOW))).isTrue();
        assertThat(holds.of(ACCOUNT, REGION, "customers", NOW).holds(backup("b-new", NOW)))
                .isFalse();
    }

    @Test
    void aHoldOlderThanItsMaximumAgeIsARestoreNobodyEndedAndHoldsNothing() {
        // Given a restore accepted and never ended
        holds.fold(RestoreEvents.acceptedOfBackup("r-4", "b-2"));

        // Then eight days later it holds nothing
        assertThat(holds.of(ACCOUNT, REGION, TABLE, NOW.plus(Duration.ofDays(8)))
                        .holds(backup("b-2", NOW)))
                .isFalse();
        assertThat(holds.of(ACCOUNT, REGION, TABLE, NOW.plus(Duration.ofDays(6)))
                        .holds(backup("b-2", NOW)))
                .isTrue();
    }

    @Test
    void pastItsBoundTheFoldDropsTheOldestHoldAndThenHoldsEverythingUntilThatOneWouldBeStale() {
        // Given a fold bounded to two restores in progress
        var bounded = new RestoreHolds(2, Duration.ofDays(7));
        bounded.fold(RestoreEvents.acceptedOfBackup("r-1", "b-1"));
        bounded.fold(RestoreEvents.acceptedOfBackup("r-2", "b-2"));

        // When a third starts
        bounded.fold(RestoreEvents.acceptedOfBackup("r-3", "b-3"));

        // Then it keeps two, and every backup is held, since what r-1 read is no longer known
        assertThat(bounded.size()).isEqualTo(2);
        assertThat(bounded.of(ACCOUNT, REGION, TABLE, NOW).holds(backup("b-9", NOW)))
                .isTrue();
        assertThat(bounded.of(ACCOUNT, REGION, "customers", NOW).holds(backup("b-9", NOW)))
                .isTrue();
        // and once r-1 would have been stale, only the known holds count
        var later = NOW.plus(Duration.ofDays(7)).plusSeconds(60);
        assertThat(bounded.of(ACCOUNT, REGION, TABLE, later).holds(backup("b-9", NOW)))
                .isFalse();
    }
}
