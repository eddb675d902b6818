package io.dynarestore.core.pitr;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PitrCoverageTest {

    static final Instant EPOCH = Instant.parse("2026-11-30T00:00:00Z");
    static final Instant NOW = EPOCH.plusSeconds(10_000);

    /** A time on a grid of tenths of a second from EPOCH. */
    static Instant at(int tenths) {
        return EPOCH.plusMillis(tenths * 100L);
    }

    static BackupSummary backup(String id, int tenths, boolean expired) {
        return new BackupSummary(id, at(tenths), expired ? EPOCH.minusSeconds(1) : null, "000000000000", "us-east-1",
                "t", 0, 0, null);
    }

    static ExportMetadata export(String id, int fromTenths, int toTenths, boolean compacted) {
        return new ExportMetadata(1, id, "000000000000", "us-east-1", "t", at(fromTenths), at(toTenths), compacted, 0,
                null);
    }

    @Test
    void aBackupFollowedByExportsIsRestorableToEverySecondTheyCoverAndNotInTheirGap() {
        // Given a backup at 0 s, exports covering [0 s, 60 s) and [90 s, 120 s): a gap from 60 s to 90 s
        var coverage = PitrCoverage.of(List.of(backup("b", 0, false)),
                List.of(export("e1", 0, 600, false), export("e2", 900, 1200, false)), NOW);

        // Then seconds 0 to 59 are restorable (second 59 holds the writes before 60 s), nothing after
        var availability = coverage.availability();
        assertThat(availability.windows()).containsExactly(new PitrCoverage.Window(at(0), at(590)));
        assertThat(availability.latestRestorable()).isEqualTo(at(590));
        assertThat(coverage.resolve(at(0))).isPresent();
        assertThat(coverage.resolve(at(590))).isPresent();
        assertThat(coverage.resolve(at(600))).isEmpty();
        assertThat(coverage.resolve(at(1000))).isEmpty();
        assertThat(coverage.nearest(at(1000))).contains(at(590).toString());
    }

    @Test
    void reportsTheGapBetweenTwoWindowsAndNamesTheSecondsAroundIt() {
        var coverage = PitrCoverage.of(List.of(backup("b1", 0, false), backup("b2", 900, false)),
                List.of(export("e1", 0, 600, false), export("e2", 900, 1200, false)), NOW);
        var availability = coverage.availability();
        assertThat(availability.windows()).containsExactly(new PitrCoverage.Window(at(0), at(590)),
                new PitrCoverage.Window(at(900), at(1190)));
        assertThat(availability.gaps()).containsExactly(new PitrCoverage.Window(at(600), at(890)));
        assertThat(coverage.nearest(at(700))).contains(at(590).toString()).contains(at(900).toString());
        assertThat(coverage.resolve(at(1000)).orElseThrow().base().backupId()).isEqualTo("b2");
    }

    @Test
    void aCompactedExportIsExactOnlyAtItsEnd() {
        var coverage = PitrCoverage.of(List.of(backup("b", 0, false)), List.of(export("native", 0, 600, true)), NOW);
        assertThat(coverage.availability().windows()).containsExactly(new PitrCoverage.Window(at(590), at(590)));
        assertThat(coverage.resolve(at(300))).isEmpty();
    }

    @Test
    void anExpiredBackupOffersNothing() {
        var coverage = PitrCoverage.of(List.of(backup("old", 0, true)), List.of(export("e", 0, 600, false)), NOW);
        assertThat(coverage.availability().windows()).isEmpty();
    }

    static LongStream seeds() {
        return LongStream.range(0, 300);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void agreesWithABruteForceReplayOnRandomHistories(long seed) {
        // Given random backups and exports on a grid of tenths of a second, some compacted, with gaps and overlaps
        Random r = new Random(seed);
        int horizon = 2_000;
        var backups = new ArrayList<BackupSummary>();
        for (int i = 0; i < 1 + r.nextInt(3); i++) {
            backups.add(backup("b" + i, r.nextInt(horizon / 2), r.nextInt(6) == 0));
        }
        var exports = new ArrayList<ExportMetadata>();
        int cursor = r.nextInt(200);
        while (cursor < horizon) {
            int length = 5 + r.nextInt(300);
            exports.add(export("e" + exports.size(), cursor, Math.min(horizon, cursor + length), r.nextInt(3) == 0));
            cursor += length + (r.nextInt(4) == 0 ? r.nextInt(200) : -r.nextInt(Math.min(length, 40)));
        }

        // When coverage is computed
        var coverage = PitrCoverage.of(backups, exports, NOW);
        var windows = coverage.availability().windows();

        // Then a second is in a window exactly when a brute-force replay on the grid can restore it,
        // and resolve() agrees for every second
        var expected = new TreeSet<Integer>();
        for (BackupSummary b : backups) {
            if (b.expiredAt(NOW)) {
                continue;
            }
            int t0 = (int) ((b.takenAt().toEpochMilli() - EPOCH.toEpochMilli()) / 100);
            boolean[] exact = bruteForce(t0, exports, horizon);
            for (int second = 0; (second + 1) * 10 <= horizon; second++) {
                int end = (second + 1) * 10;
                if (end > t0 && exact[end]) {
                    expected.add(second);
                }
            }
        }
        var actual = new TreeSet<Integer>();
        for (int second = 0; second * 10 <= horizon; second++) {
            Instant t = EPOCH.plusSeconds(second);
            if (windows.stream().anyMatch(w -> w.contains(t))) {
                actual.add(second);
            }
            assertThat(coverage.resolve(t).isPresent()).as("resolve(%d s)", second).isEqualTo(expected.contains(second));
        }
        assertThat(actual).isEqualTo(expected);
    }

    /** Instants (grid points) whose state is known from a base at t0, by plain iteration. */
    static boolean[] bruteForce(int t0, List<ExportMetadata> exports, int horizon) {
        boolean[] exact = new boolean[horizon + 1];
        exact[t0] = true;
        boolean grew = true;
        while (grew) {
            grew = false;
            for (ExportMetadata e : exports) {
                int from = (int) ((e.from().toEpochMilli() - EPOCH.toEpochMilli()) / 100);
                int to = (int) ((e.to().toEpochMilli() - EPOCH.toEpochMilli()) / 100);
                int first = -1;
                for (int x = Math.max(from, 0); x <= to; x++) {
                    if (exact[x]) {
                        first = x;
                        break;
                    }
                }
                if (first < 0) {
                    continue;
                }
                for (int x = e.compacted() ? to : first; x <= to; x++) {
                    if (!exact[x]) {
                        exact[x] = true;
                        grew = true;
                    }
                }
            }
        }
        return exact;
    }
}
