package io.dynarestore.protector.backups;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.protection.BackupMethod;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.S3Server;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/** Which slot is due, against the vault on S3Proxy: a slot begun and not finished is not left behind. */
class BackupScheduleIT {

    private static S3Server s3;
    private static final VaultLayout LAYOUT = new VaultLayout("vault", "");
    private static BackupSchedule schedule;

    @BeforeAll
    static void start() {
        s3 = S3Server.start("vault");
        schedule = new BackupSchedule(new VaultCatalog(s3.client(), LAYOUT));
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    private static ProtectionSet everyMinute(String table) {
        return ProtectionSet.of(
                "000000000000",
                "us-east-1",
                table,
                new ProtectionSet.Backups(BackupMethod.SCAN, "PT1M", "P1D", null),
                new ProtectionSet.ChangeLog(ChangeLogMethod.NONE, null),
                "test");
    }

    private static void begin(String table, Instant slot) {
        String key = LAYOUT.backupPrefix("000000000000", "us-east-1", table, BackupSchedule.backupIdOf(slot))
                + "_scan/segment-0-of-4.json";
        s3.client().putObject(b -> b.bucket("vault").key(key), RequestBody.fromString("{}"));
    }

    @Test
    void aSlotWhoseBackupWasBegunAndNotListedIsFinishedBeforeTheLatestSlot() {
        // Given a backup of the 10:00 slot begun (a replica died during it) and never listed
        var policy = everyMinute("begun");
        begin("begun", Instant.parse("2026-12-02T10:00:00Z"));

        // When the next slot has begun
        var due = schedule.due(policy, Instant.parse("2026-12-02T10:01:05Z"));

        // Then the begun slot is due first
        assertThat(due).hasValue(Instant.parse("2026-12-02T10:00:00Z"));
    }

    @Test
    void aSlotMissedWhileThePolicyHeldIsTakenLateBeforeTheLatest() {
        // Given a policy set before the 10:00 slot, and nothing in the vault for that slot (no replica
        // held the table through it)
        var set = everyMinute("missed");
        var policy = new ProtectionSet(
                set.eventId(),
                set.schemaVersion(),
                Instant.parse("2026-12-02T09:59:30Z"),
                set.account(),
                set.region(),
                set.table(),
                set.backups(),
                set.changeLog(),
                set.setBy(),
                set.backupRequestedAt());

        // When the next slot has begun
        var due = schedule.due(policy, Instant.parse("2026-12-02T10:01:05Z"));

        // Then the missed slot is due first, and the one before it is not
        assertThat(due).hasValue(Instant.parse("2026-12-02T10:00:00Z"));
        assertThat(schedule.due(policy, Instant.parse("2026-12-02T10:02:05Z")))
                .hasValue(Instant.parse("2026-12-02T10:01:00Z"));
    }

    @Test
    void aSlotNeverBegunBeforeThePolicyWasSetIsLeftBehindAndTheLatestIsDue() {
        // Given nothing in the vault for the 10:00 slot, and a policy set after it
        var policy = everyMinute("never");

        // When the next slot has begun
        var due = schedule.due(policy, Instant.parse("2026-12-02T10:01:05Z"));

        // Then the latest slot is due
        assertThat(due).hasValue(Instant.parse("2026-12-02T10:01:00Z"));
    }
}
