package io.dynarestore.contracts.protection;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProtectionSetTest {

    private static ProtectionSet policy(
            BackupMethod method, String every, String retention, Integer share, ChangeLogMethod log, String flush) {
        return ProtectionSet.of(
                "000000000000",
                "us-east-1",
                "orders",
                new ProtectionSet.Backups(method, every, retention, share),
                new ProtectionSet.ChangeLog(log, flush),
                "p");
    }

    @Test
    void aHourlyScanWithAStreamsChangeLogFlushedEveryMinuteMayBeApplied() {
        var p = policy(BackupMethod.SCAN, "PT1H", "P35D", 25, ChangeLogMethod.STREAMS, "PT1M");
        assertThat(p.problems()).isEmpty();
        assertThat(p.backupInterval()).isEqualTo(Duration.ofHours(1));
        assertThat(p.flushInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(p.subject()).isEqualTo("000000000000/us-east-1/orders");
    }

    private static ProtectionSet cron(String every, String cron) {
        return ProtectionSet.of(
                "000000000000",
                "us-east-1",
                "orders",
                new ProtectionSet.Backups(BackupMethod.SCAN, every, "P1D", null, cron),
                new ProtectionSet.ChangeLog(ChangeLogMethod.NONE, null),
                "p");
    }

    @Test
    void aCronScheduleMayBeGivenInsteadOfAnIntervalAndItsFiringsStartTheSlots() {
        var p = cron(null, "30 2 * * MON-FRI");
        assertThat(p.problems()).isEmpty();
        assertThat(p.backupInterval()).isNull();
        // a Saturday at noon: the slot is Friday's 02:30
        assertThat(p.slotAt(Instant.parse("2026-12-05T12:00:00Z"))).isEqualTo(Instant.parse("2026-12-04T02:30:00Z"));
        assertThat(cron("PT1H", null).slotAt(Instant.parse("2026-12-05T12:34:56Z")))
                .isEqualTo(Instant.parse("2026-12-05T12:00:00Z"));
    }

    @Test
    void aCronScheduleReadsFromJsonAsTheApiReceivesIt() {
        var backups = io.dynarestore.contracts.Json.mapper()
                .readValue(
                        "{\"method\":\"SCAN\",\"cron\":\"0 3 * * *\",\"retention\":\"P7D\"}",
                        ProtectionSet.Backups.class);
        assertThat(backups.cron()).isEqualTo("0 3 * * *");
        assertThat(backups.every()).isNull();
    }

    static Stream<Arguments> badPolicies() {
        return Stream.of(
                Arguments.of(policy(null, "PT1H", "P1D", null, null, null), "/backups/method"),
                Arguments.of(policy(BackupMethod.SCAN, "hourly", "P1D", null, null, null), "/backups/every"),
                Arguments.of(policy(BackupMethod.SCAN, "PT5S", "P1D", null, null, null), "/backups/every"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", null, null, null, null), "/backups/retention"),
                Arguments.of(policy(BackupMethod.SCAN, null, "P1D", null, null, null), "/backups/every"),
                Arguments.of(cron(null, "0 3 * *"), "/backups/cron"),
                Arguments.of(cron(null, "0 25 * * *"), "/backups/cron"),
                Arguments.of(cron(null, "0 0 30 2 *"), "/backups/cron"),
                Arguments.of(cron("PT1H", "0 3 * * *"), "/backups/cron"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "-P1D", null, null, null), "/backups/retention"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "P1D", 0, null, null), "/backups/readSharePercent"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "P1D", 101, null, null), "/backups/readSharePercent"),
                Arguments.of(
                        policy(BackupMethod.SCAN, "PT1H", "P1D", null, ChangeLogMethod.STREAMS, null),
                        "/changeLog/flushEvery"),
                Arguments.of(
                        policy(BackupMethod.SCAN, "PT1H", "P1D", null, ChangeLogMethod.STREAMS, "PT0.5S"),
                        "/changeLog/flushEvery"),
                Arguments.of(
                        policy(BackupMethod.SCAN, "PT1H", "P1D", null, ChangeLogMethod.NATIVE_INCREMENTAL, "PT5M"),
                        "/changeLog/flushEvery"),
                Arguments.of(
                        policy(BackupMethod.SCAN, "PT1H", "P1D", null, ChangeLogMethod.NATIVE_INCREMENTAL, "P2D"),
                        "/changeLog/flushEvery"),
                Arguments.of(groups(ChangeLogMethod.STREAMS, 0), "/changeLog/shardGroups"),
                Arguments.of(groups(ChangeLogMethod.STREAMS, 33), "/changeLog/shardGroups"),
                Arguments.of(groups(ChangeLogMethod.NATIVE_INCREMENTAL, 3), "/changeLog/shardGroups"));
    }

    static ProtectionSet groups(ChangeLogMethod method, int groups) {
        return ProtectionSet.of(
                "000000000000",
                "us-east-1",
                "orders",
                new ProtectionSet.Backups(BackupMethod.SCAN, "PT1H", "P1D", null),
                new ProtectionSet.ChangeLog(method, "PT1H", groups),
                "alice");
    }

    @Test
    void aStreamsChangeLogMayBeSplitIntoShardGroups() {
        var p = groups(ChangeLogMethod.STREAMS, 3);
        assertThat(p.problems()).isEmpty();
        assertThat(p.shardGroups()).isEqualTo(3);
        assertThat(groups(ChangeLogMethod.STREAMS, 1).shardGroups()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badPolicies")
    void aPolicyThatCannotBeAppliedNamesTheFieldAndTheFix(ProtectionSet p, String field) {
        assertThat(p.problems())
                .isNotEmpty()
                .allSatisfy(problem -> assertThat(problem).startsWith(field + ": "));
    }

    @Test
    void anOnDemandBackupRequestKeepsThePolicyAndSaysWhen() {
        var p = policy(BackupMethod.SCAN, "PT1H", "P35D", null, ChangeLogMethod.NONE, null);
        var asked = p.requestingBackup(Instant.parse("2026-12-01T10:00:00Z"), "ops");
        assertThat(asked.backups()).isEqualTo(p.backups());
        assertThat(asked.backupRequestedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        assertThat(asked.setBy()).isEqualTo("ops");
        assertThat(asked.eventId()).isNotEqualTo(p.eventId());
    }
}
