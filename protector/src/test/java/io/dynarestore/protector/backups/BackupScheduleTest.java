package io.dynarestore.protector.backups;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.protection.BackupMethod;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

class BackupScheduleTest {

    static IntStream seeds() {
        return IntStream.range(0, 50);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyInstantOfASlotNamesTheSameBackupAndTheNextSlotAnother(int seed) {
        // Given a random interval and a random instant
        var r = new Random(seed);
        Duration every = Duration.ofSeconds(10 + r.nextInt(86_400));
        Instant t = Instant.ofEpochSecond(1_700_000_000L + r.nextInt(100_000_000), r.nextInt(1_000_000_000));

        // When its slot is computed
        Instant slot = BackupSchedule.slotOf(t, every);

        // Then the slot holds t, every instant of it maps to it, and the next slot has its own id
        assertThat(slot).isBeforeOrEqualTo(t);
        assertThat(t).isBefore(slot.plus(every));
        assertThat(BackupSchedule.slotOf(slot.plus(every).minusMillis(1), every))
                .isEqualTo(slot);
        assertThat(BackupSchedule.backupIdOf(slot)).isNotEqualTo(BackupSchedule.backupIdOf(slot.plus(every)));
        assertThat(BackupSchedule.backupIdOf(slot)).endsWith("-scheduled");
    }

    @Test
    void slotsAreAlignedToTheEpochSoThatEveryReplicaAgrees() {
        assertThat(BackupSchedule.slotOf(Instant.parse("2026-12-01T10:17:42Z"), Duration.ofHours(1)))
                .isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        assertThat(BackupSchedule.backupIdOf(Instant.parse("2026-12-01T10:00:00Z")))
                .isEqualTo("20261201T100000Z-scheduled");
        assertThat(ProtectionSet.of("000000000000", "us-east-1", "t", null, null, "p")
                        .requestingBackup(Instant.parse("2026-12-01T10:00:05Z"), "p")
                        .onDemandBackupId())
                .isEqualTo("20261201T100005Z-on-demand");
    }

    @Test
    void aScanMayUseItsShareOfAProvisionedTablesReadsOrOfFourThousandOnDemandOrWhereNothingIsEnforced() {
        var half = ProtectionSet.of(
                "000000000000",
                "us-east-1",
                "t",
                new ProtectionSet.Backups(BackupMethod.SCAN, "PT1H", "P1D", 50),
                new ProtectionSet.ChangeLog(ChangeLogMethod.NONE, null),
                "p");
        var unset = ProtectionSet.of(
                "000000000000",
                "us-east-1",
                "t",
                new ProtectionSet.Backups(BackupMethod.SCAN, "PT1H", "P1D", null),
                null,
                "p");
        var provisioned = TableDescription.builder()
                .billingModeSummary(b -> b.billingMode(BillingMode.PROVISIONED))
                .provisionedThroughput(t -> t.readCapacityUnits(400L).writeCapacityUnits(10L))
                .build();
        var onDemand = TableDescription.builder()
                .billingModeSummary(b -> b.billingMode(BillingMode.PAY_PER_REQUEST))
                .provisionedThroughput(t -> t.readCapacityUnits(0L).writeCapacityUnits(0L))
                .build();
        assertThat(ScanBackups.readBudget(provisioned, half, true)).isEqualTo(200.0);
        assertThat(ScanBackups.readBudget(onDemand, half, true)).isEqualTo(2_000.0);
        assertThat(ScanBackups.readBudget(provisioned, unset, true)).isEqualTo(100.0);
        assertThat(ScanBackups.readBudget(provisioned, half, false))
                .as("where capacity is not enforced")
                .isEqualTo(2_000.0);
    }
}
