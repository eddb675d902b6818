package io.dynarestore.planner.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ChangeLogTailTest {

    static final Instant EPOCH = Instant.parse("2026-12-03T10:00:00Z");
    static final Instant T = EPOCH.plusSeconds(10);
    static final Instant ACCEPTED = EPOCH.plusSeconds(100);

    /** A backup at EPOCH and a change log from it to {@code end}. */
    static PitrCoverage loggedTo(Instant end) {
        return PitrCoverage.of(
                List.of(new BackupSummary("b", EPOCH, null, "000000000000", "us-east-1", "t", 0, 0, null)),
                List.of(new ExportMetadata(1, "x", "000000000000", "us-east-1", "t", EPOCH, end, false, 0, null)),
                ACCEPTED.plusSeconds(1));
    }

    static ChangeLogTail tail(Duration wait) {
        return new ChangeLogTail(wait, Duration.ofMinutes(15), Duration.ofMillis(1), Clock.systemUTC());
    }

    @Test
    void waitsForTheListingInWhichTheLogReachesTheAcceptance() {
        // Given a log 3 s short of the acceptance, and listings that reach it at the third look
        var listings = new ArrayDeque<>(
                List.of(loggedTo(ACCEPTED.minusSeconds(2)), loggedTo(ACCEPTED.minusSeconds(1)), loggedTo(ACCEPTED)));
        var looks = new AtomicInteger();

        // When the tail is awaited
        var coverage = tail(Duration.ofSeconds(10)).await("r1", ACCEPTED, loggedTo(ACCEPTED.minusSeconds(3)), () -> {
            looks.incrementAndGet();
            return listings.poll();
        });

        // Then the log staged from ends at the acceptance, found at the third listing
        assertThat(coverage.changeLogAfter(T).orElseThrow().end()).isEqualTo(ACCEPTED);
        assertThat(looks).hasValue(3);
    }

    @Test
    void stagesWhatTheLogHoldsWhenTheWaitIsOver() {
        var stale = loggedTo(ACCEPTED.minusSeconds(3));

        var coverage = tail(Duration.ofMillis(50)).await("r1", ACCEPTED, stale, () -> stale);

        assertThat(coverage.changeLogAfter(T).orElseThrow().end()).isEqualTo(ACCEPTED.minusSeconds(3));
    }

    @Test
    void neitherWaitsForALogThatReachesTheAcceptanceNorForOneThatEndedLongBefore() {
        var looks = new AtomicInteger();
        var tail = tail(Duration.ofSeconds(10));

        tail.await("r1", ACCEPTED, loggedTo(ACCEPTED.plusSeconds(1)), () -> {
            looks.incrementAndGet();
            return null;
        });
        // a log 20 minutes behind: no capture runs for it, waiting would only delay the restore
        tail.await("r1", ACCEPTED, loggedTo(ACCEPTED.minus(Duration.ofMinutes(20))), () -> {
            looks.incrementAndGet();
            return null;
        });
        new ChangeLogTail(Duration.ZERO, Duration.ofMinutes(15), Duration.ofMillis(1), Clock.systemUTC())
                .await("r1", ACCEPTED, loggedTo(ACCEPTED.minusSeconds(3)), () -> {
                    looks.incrementAndGet();
                    return null;
                });

        assertThat(looks).hasValue(0);
    }
}
