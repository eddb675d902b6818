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

    private static ProtectionSet policy(BackupMethod method, String every, String retention, Integer share,
                                        ChangeLogMethod log, String flush) {
        return ProtectionSet.of("000000000000", "us-east-1", "orders",
                new ProtectionSet.Backups(method, every, retention, share), new ProtectionSet.ChangeLog(log, flush), "p");
    }

    @Test
    void aHourlyScanWithAStreamsChangeLogFlushedEveryMinuteMayBeApplied() {
        var p = policy(BackupMethod.SCAN, "PT1H", "P35D", 25, ChangeLogMethod.STREAMS, "PT1M");
        assertThat(p.problems()).isEmpty();
        assertThat(p.backupInterval()).isEqualTo(Duration.ofHours(1));
        assertThat(p.flushInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(p.subject()).isEqualTo("000000000000/us-east-1/orders");
    }

    static Stream<Arguments> badPolicies() {
        return Stream.of(
                Arguments.of(policy(null, "PT1H", "P1D", null, null, null), "/backups/method"),
                Arguments.of(policy(BackupMethod.SCAN, "hourly", "P1D", null, null, null), "/backups/every"),
                Arguments.of(policy(BackupMethod.SCAN, "PT5S", "P1D", null, null, null), "/backups/every"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", null, null, null, null), "/backups/retention"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "-P1D", null, null, null), "/backups/retention"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "P1D", 0, null, null), "/backups/readSharePercent"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "P1D", 101, null, null), "/backups/readSharePercent"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "P1D", null, ChangeLogMethod.STREAMS, null),
                        "/changeLog/flushEvery"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "P1D", null, ChangeLogMethod.STREAMS, "PT0.5S"),
                        "/changeLog/flushEvery"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "P1D", null, ChangeLogMethod.NATIVE_INCREMENTAL, "PT5M"),
                        "/changeLog/flushEvery"),
                Arguments.of(policy(BackupMethod.SCAN, "PT1H", "P1D", null, ChangeLogMethod.NATIVE_INCREMENTAL, "P2D"),
                        "/changeLog/flushEvery"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badPolicies")
    void aPolicyThatCannotBeAppliedNamesTheFieldAndTheFix(ProtectionSet p, String field) {
        assertThat(p.problems()).isNotEmpty().allSatisfy(problem -> assertThat(problem).startsWith(field + ": "));
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
