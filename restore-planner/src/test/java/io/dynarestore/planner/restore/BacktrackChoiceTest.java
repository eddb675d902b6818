package io.dynarestore.planner.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.ExportMetadata;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BacktrackChoiceTest {

    static final Instant T = Instant.parse("2026-12-01T10:00:00Z");
    static final Instant NOW = T.plusSeconds(3_600);

    static PitrCoverage.ChangeLog log(Instant end, long changes) {
        var export = new ExportMetadata(1, "e", "000000000000", "us-east-1", "orders", T, end, false, changes, null);
        return new PitrCoverage.ChangeLog(T, end, List.of(export));
    }

    @Test
    void aRecentLogWithFewerChangesThanTheTableHasItemsIsABacktrack() {
        assertThat(BacktrackChoice.refusal(log(NOW.minusSeconds(60), 10_000), 1_000_000, NOW, Duration.ofMinutes(15)))
                .isNull();
    }

    @Test
    void noLogAfterTheSecondIsTheFullPathAndSaysWhy() {
        assertThat(BacktrackChoice.refusal(null, 1_000_000, NOW, Duration.ofMinutes(15)))
                .contains("gap", "compacted");
    }

    @Test
    void aLogThatEndedLongAgoIsTheFullPathAndNamesTheSetting() {
        assertThat(BacktrackChoice.refusal(
                        log(NOW.minus(Duration.ofHours(1)), 10), 1_000_000, NOW, Duration.ofMinutes(15)))
                .contains("planner.pitr.backtrack-max-lag", "PT15M");
    }

    @Test
    void fourTimesMoreChangesThanItemsIsTheFullPath() {
        assertThat(BacktrackChoice.refusal(log(NOW, 3_999), 1_000, NOW, Duration.ofMinutes(15)))
                .isNull();
        assertThat(BacktrackChoice.refusal(log(NOW, 4_000), 1_000, NOW, Duration.ofMinutes(15)))
                .contains("4000 changes", "1000 items");
    }
}
