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
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryDescription;

class ChangeLogTailTest {

    static final Instant EPOCH = Instant.parse("2026-12-03T10:00:00Z");
    static final Instant T = EPOCH.plusSeconds(10);
    static final Instant ACCEPTED = EPOCH.plusSeconds(100);
    /** An acceptance 40 minutes after the backup, for native chains (their exports span 15 minutes at least). */
    static final Instant LATE = EPOCH.plus(Duration.ofMinutes(40));

    /** A backup at EPOCH and a change log from it to {@code end}. */
    static PitrCoverage loggedTo(Instant end) {
        return coverage("x", end, false);
    }

    /** A backup at EPOCH and a native incremental chain from it to {@code end}. */
    static PitrCoverage nativeChainTo(Instant end) {
        return coverage("native-" + end.getEpochSecond(), end, true);
    }

    private static PitrCoverage coverage(String exportId, Instant end, boolean compacted) {
        return PitrCoverage.of(
                List.of(new BackupSummary("b", EPOCH, null, "000000000000", "us-east-1", "t", 0, 0, null)),
                List.of(new ExportMetadata(
                        1, exportId, "000000000000", "us-east-1", "t", EPOCH, end, compacted, 0, null)),
                LATE.plusSeconds(1));
    }

    static ChangeLogTail tail(Duration wait) {
        return new ChangeLogTail(
                wait, Duration.ofMinutes(15), Duration.ofMillis(1), Clock.systemUTC(), wait, Duration.ofMinutes(15));
    }

    /** Recovery of the source table from EPOCH to {@code latest}. */
    static Supplier<PointInTimeRecoveryDescription> recovery(Instant latest) {
        return () -> PointInTimeRecoveryDescription.builder()
                .earliestRestorableDateTime(EPOCH)
                .latestRestorableDateTime(latest)
                .build();
    }

    @Test
    void waitsForTheListingInWhichTheLogReachesTheAcceptance() {
        // Given a log 3 s short of the acceptance, and listings that reach it at the third look
        var listings = new ArrayDeque<>(
                List.of(loggedTo(ACCEPTED.minusSeconds(2)), loggedTo(ACCEPTED.minusSeconds(1)), loggedTo(ACCEPTED)));
        var looks = new AtomicInteger();

        // When the tail is awaited
        var coverage = tail(Duration.ofSeconds(10))
                .await(
                        "r1",
                        ACCEPTED,
                        loggedTo(ACCEPTED.minusSeconds(3)),
                        () -> {
                            looks.incrementAndGet();
                            return listings.poll();
                        },
                        recovery(ACCEPTED));

        // Then the log staged from ends at the acceptance, found at the third listing
        assertThat(coverage.changeLogAfter(T).orElseThrow().end()).isEqualTo(ACCEPTED);
        assertThat(looks).hasValue(3);
    }

    @Test
    void stagesWhatTheLogHoldsWhenTheWaitIsOver() {
        var stale = loggedTo(ACCEPTED.minusSeconds(3));

        var coverage = tail(Duration.ofMillis(50)).await("r1", ACCEPTED, stale, () -> stale, recovery(ACCEPTED));

        assertThat(coverage.changeLogAfter(T).orElseThrow().end()).isEqualTo(ACCEPTED.minusSeconds(3));
    }

    @Test
    void neitherWaitsForALogThatReachesTheAcceptanceNorForOneThatEndedLongBefore() {
        var looks = new AtomicInteger();
        Supplier<PitrCoverage> listing = () -> {
            looks.incrementAndGet();
            return null;
        };
        var tail = tail(Duration.ofSeconds(10));

        tail.await("r1", ACCEPTED, loggedTo(ACCEPTED.plusSeconds(1)), listing, recovery(ACCEPTED));
        // a log 20 minutes behind: no capture runs for it, waiting would only delay the restore
        tail.await("r1", ACCEPTED, loggedTo(ACCEPTED.minus(Duration.ofMinutes(20))), listing, recovery(ACCEPTED));
        new ChangeLogTail(
                        Duration.ZERO,
                        Duration.ofMinutes(15),
                        Duration.ofMillis(1),
                        Clock.systemUTC(),
                        Duration.ZERO,
                        Duration.ofMinutes(15))
                .await("r1", ACCEPTED, loggedTo(ACCEPTED.minusSeconds(3)), listing, recovery(ACCEPTED));

        assertThat(looks).hasValue(0);
    }

    @Test
    void waitsForTheTailExportOfANativeChainUntilItsEndMoves() {
        // Given a native chain ending 20 minutes before the acceptance, recovery up to the acceptance,
        // and listings in which the protector's tail export appears at the third look
        Instant chainEnd = LATE.minus(Duration.ofMinutes(20));
        var listings = new ArrayDeque<>(
                List.of(nativeChainTo(chainEnd), nativeChainTo(chainEnd), nativeChainTo(LATE.minusSeconds(1))));
        var looks = new AtomicInteger();

        // When the tail is awaited
        var coverage = tail(Duration.ofSeconds(10))
                .await(
                        "r1",
                        LATE,
                        nativeChainTo(chainEnd),
                        () -> {
                            looks.incrementAndGet();
                            return listings.poll();
                        },
                        recovery(LATE));

        // Then the coverage staged from holds the tail export, found at the third listing
        assertThat(coverage.lastExport().orElseThrow().to()).isEqualTo(LATE.minusSeconds(1));
        assertThat(looks).hasValue(3);
    }

    @Test
    void waitsForNoNativeTailThatDynamoDbCouldNotExport() {
        var looks = new AtomicInteger();
        Supplier<PitrCoverage> listing = () -> {
            looks.incrementAndGet();
            return null;
        };
        var tail = tail(Duration.ofSeconds(10));

        // a chain 10 minutes short of the acceptance: shorter than DynamoDB's shortest export (15 minutes)
        tail.await("r1", LATE, nativeChainTo(LATE.minus(Duration.ofMinutes(10))), listing, recovery(LATE));
        // a chain 20 minutes short, but recovery reaches only 10 minutes past its end
        tail.await(
                "r1",
                LATE,
                nativeChainTo(LATE.minus(Duration.ofMinutes(20))),
                listing,
                recovery(LATE.minus(Duration.ofMinutes(10))));
        // recovery of the source unknown (no permission to describe it)
        tail.await("r1", LATE, nativeChainTo(LATE.minus(Duration.ofMinutes(20))), listing, () -> {
            throw new IllegalStateException("AccessDenied");
        });

        assertThat(looks).hasValue(0);
    }
}
