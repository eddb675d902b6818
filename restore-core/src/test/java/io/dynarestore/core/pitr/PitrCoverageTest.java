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
        return new BackupSummary(
                id, at(tenths), expired ? EPOCH.minusSeconds(1) : null, "000000000000", "us-east-1", "t", 0, 0, null);
    }

    static ExportMetadata export(String id, int fromTenths, int toTenths, boolean compacted) {
        return new ExportMetadata(
                1, id, "000000000000", "us-east-1", "t", at(fromTenths), at(toTenths), compacted, 0, null);
    }

    static ExportMetadata groupExport(String id, int index, int of, int fromTenths, int toTenths) {
        return new ExportMetadata(
                1,
                id,
                "000000000000",
                "us-east-1",
                "t",
                at(fromTenths),
                at(toTenths),
                false,
                0,
                null,
                new ExportMetadata.ShardGroup(index, of));
    }

    @Test
    void theChangeLogAfterASecondRunsToTheEndOfTheExportsJoinedToIt() {
        // Given a backup at 0 s and the vault's exports to 30 s, 60 s and 90 s
        var coverage = PitrCoverage.of(
                List.of(backup("b", 0, false)),
                List.of(export("e1", 0, 300, false), export("e2", 300, 600, false), export("e3", 600, 900, false)),
                NOW);

        // When the log after second 40 is asked for
        var log = coverage.changeLogAfter(at(400)).orElseThrow();

        // Then it ends at 90 s, and only the exports holding writes after 41 s are read
        assertThat(log.end()).isEqualTo(at(900));
        assertThat(log.exports()).extracting(ExportMetadata::exportId).containsExactly("e2", "e3");
    }

    @Test
    void theChangeLogAfterASecondEndsAtAGap() {
        // Given exports to 30 s, then from 40 s: a gap of 10 s
        var coverage = PitrCoverage.of(
                List.of(backup("b", 0, false)),
                List.of(export("e1", 0, 300, false), export("e2", 400, 900, false)),
                NOW);

        // Then the log after second 10 ends where the gap begins
        var log = coverage.changeLogAfter(at(100)).orElseThrow();
        assertThat(log.end()).isEqualTo(at(300));
        assertThat(log.exports()).extracting(ExportMetadata::exportId).containsExactly("e1");
    }

    @Test
    void aCompactedExportHoldsNoImageAtASecondInsideIt() {
        // Given a backup at 0 s, a compacted (native) export to 60 s, then the vault's own exports
        var coverage = PitrCoverage.of(
                List.of(backup("b", 0, false)),
                List.of(export("native", 0, 600, true), export("e2", 600, 900, false)),
                NOW);

        // Then a second inside the compacted export has no change log after it
        assertThat(coverage.changeLogAfter(at(300))).isEmpty();
        // and a second after it is followed by the vault's exports
        assertThat(coverage.changeLogAfter(at(650)).orElseThrow().end()).isEqualTo(at(900));
    }

    @Test
    void theChangeLogEndsWhereTheSlowestShardGroupEnds() {
        // Given two shard groups flushed to 60 s and to 40 s
        var coverage = PitrCoverage.of(
                List.of(backup("b", 0, false)),
                List.of(groupExport("g0", 0, 2, 0, 600), groupExport("g1", 1, 2, 0, 400)),
                NOW);

        // Then the log after second 10 ends at 40 s
        assertThat(coverage.changeLogAfter(at(100)).orElseThrow().end()).isEqualTo(at(400));
    }

    @Test
    void aSecondIsRestorableOnlyWhenEveryShardGroupHasFlushedPastIt() {
        // Given a backup at 0 s and two shard groups, one flushed to 60 s and the other to 40 s
        var coverage = PitrCoverage.of(
                List.of(backup("b", 0, false)),
                List.of(groupExport("g0", 0, 2, 0, 600), groupExport("g1", 1, 2, 0, 400)),
                NOW);

        // Then the table is restorable up to the second before the slower group's end
        assertThat(coverage.availability().windows()).containsExactly(new PitrCoverage.Window(at(0), at(390)));
        assertThat(coverage.resolve(at(390)).orElseThrow().exports()).hasSize(2);
        assertThat(coverage.resolve(at(400))).isEmpty();
    }

    @Test
    void aGapInOneShardGroupIsAGapOfTheTable() {
        // Given two groups, the second with a gap from 40 s to 50 s, and a second backup at 55 s
        var coverage = PitrCoverage.of(
                List.of(backup("b1", 0, false), backup("b2", 550, false)),
                List.of(
                        groupExport("g0", 0, 2, 0, 1000),
                        groupExport("g1a", 1, 2, 0, 400),
                        groupExport("g1b", 1, 2, 500, 1000)),
                NOW);

        // Then no second from 40 s to 54 s is restorable; from the second backup on, every second is
        var availability = coverage.availability();
        assertThat(availability.windows())
                .containsExactly(new PitrCoverage.Window(at(0), at(390)), new PitrCoverage.Window(at(550), at(990)));
        assertThat(availability.gaps()).containsExactly(new PitrCoverage.Window(at(400), at(540)));
    }

    @Test
    void groupsThatReplaceAWholeTableChainGoOnFromWhereItEnds() {
        // Given a whole-table chain to 30 s, then three groups from 30 s (as when a capture is split)
        var coverage = PitrCoverage.of(
                List.of(backup("b", 0, false)),
                List.of(
                        export("whole", 0, 300, false), groupExport("g0", 0, 3, 300, 600),
                        groupExport("g1", 1, 3, 300, 700), groupExport("g2", 2, 3, 300, 500)),
                NOW);

        // Then the table is restorable from the backup to the slowest group's end, without a gap
        assertThat(coverage.availability().windows()).containsExactly(new PitrCoverage.Window(at(0), at(490)));
    }

    @Test
    void aShardGroupOfACountNotAllOfWhoseGroupsFlushedAddsNothing() {
        // Given a whole-table chain to 30 s and only two of three groups after it
        var coverage = PitrCoverage.of(
                List.of(backup("b", 0, false)),
                List.of(
                        export("whole", 0, 300, false),
                        groupExport("g0", 0, 3, 300, 600),
                        groupExport("g1", 1, 3, 300, 700)),
                NOW);

        assertThat(coverage.availability().windows()).containsExactly(new PitrCoverage.Window(at(0), at(290)));
    }

    @Test
    void aBackupFollowedByExportsIsRestorableToEverySecondTheyCoverAndNotInTheirGap() {
        // Given a backup at 0 s, exports covering [0 s, 60 s) and [90 s, 120 s): a gap from 60 s to 90 s
        var coverage = PitrCoverage.of(
                List.of(backup("b", 0, false)),
                List.of(export("e1", 0, 600, false), export("e2", 900, 1200, false)),
                NOW);

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
        var coverage = PitrCoverage.of(
                List.of(backup("b1", 0, false), backup("b2", 900, false)),
                List.of(export("e1", 0, 600, false), export("e2", 900, 1200, false)),
                NOW);
        var availability = coverage.availability();
        assertThat(availability.windows())
                .containsExactly(new PitrCoverage.Window(at(0), at(590)), new PitrCoverage.Window(at(900), at(1190)));
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

        // Then a second is in a window exactly when a brute-force replay on the grid can restore it,
        // and resolve() agrees for every second
        var expected = new TreeSet<Integer>();
        for (BackupSummary b : backups) {
            if (b.expiredAt(NOW)) {
                continue;
            }
            int t0 = (int) ((b.takenAt().toEpochMilli() - EPOCH.toEpochMilli()) / 100);
            addRestorableSeconds(expected, t0, bruteForce(t0, exports, horizon), horizon);
        }
        assertRestorableExactly(coverage, expected, horizon);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void agreesWithAReplayOfEveryKeyWhenShardGroupsRecordTheChanges(long seed) {
        // Given random backups, whole-table exports (some compacted), and the chains of shard groups of
        // one to three counts (2, 3, 4), each with its own gaps and ends
        Random r = new Random(seed);
        int horizon = 2_000;
        var backups = new ArrayList<BackupSummary>();
        for (int i = 0; i < 1 + r.nextInt(3); i++) {
            backups.add(backup("b" + i, r.nextInt(horizon / 2), r.nextInt(6) == 0));
        }
        var exports = new ArrayList<ExportMetadata>();
        int split = r.nextInt(horizon);
        chain(r, exports, -1, 1, 0, split);
        var counts = new ArrayList<>(List.of(2, 3, 4));
        java.util.Collections.shuffle(counts, r);
        int families = 1 + r.nextInt(3);
        for (int f = 0; f < families; f++) {
            int of = counts.get(f);
            int start = f == 0 ? Math.max(0, split - r.nextInt(50)) : r.nextInt(horizon);
            for (int index = 0; index < of; index++) {
                chain(r, exports, index, of, start, horizon);
            }
        }

        // When coverage is computed
        var coverage = PitrCoverage.of(backups, exports, NOW);

        // Then a second is in a window exactly when every key of the table can be replayed to it on the
        // grid from one base (24 keys, one in each combination of a group of 2, one of 3 and one of 4:
        // the groups of two counts split the keys independently)
        var expected = new TreeSet<Integer>();
        for (BackupSummary b : backups) {
            if (b.expiredAt(NOW)) {
                continue;
            }
            int t0 = (int) ((b.takenAt().toEpochMilli() - EPOCH.toEpochMilli()) / 100);
            boolean[] table = new boolean[horizon + 1];
            java.util.Arrays.fill(table, true);
            for (int key = 0; key < 24; key++) {
                int[] groupOf = {0, 0, key % 2, key / 2 % 3, key / 6};
                boolean[] exact = bruteForce(
                        t0,
                        exports.stream()
                                .filter(e -> e.shardGroup() == null
                                        || e.shardGroup().index()
                                                == groupOf[e.shardGroup().of()])
                                .toList(),
                        horizon);
                for (int x = 0; x <= horizon; x++) {
                    table[x] &= exact[x];
                }
            }
            addRestorableSeconds(expected, t0, table, horizon);
        }
        assertRestorableExactly(coverage, expected, horizon);
    }

    /** Adds the seconds whose end is after {@code t0} and known exactly on the grid. */
    static void addRestorableSeconds(TreeSet<Integer> expected, int t0, boolean[] exact, int horizon) {
        for (int second = 0; (second + 1) * 10 <= horizon; second++) {
            int end = (second + 1) * 10;
            if (end > t0 && exact[end]) {
                expected.add(second);
            }
        }
    }

    /** The coverage's windows hold exactly the expected seconds, and resolve() agrees for every second. */
    static void assertRestorableExactly(PitrCoverage coverage, TreeSet<Integer> expected, int horizon) {
        var windows = coverage.availability().windows();
        var actual = new TreeSet<Integer>();
        for (int second = 0; second * 10 <= horizon; second++) {
            Instant t = EPOCH.plusSeconds(second);
            if (windows.stream().anyMatch(w -> w.contains(t))) {
                actual.add(second);
            }
            assertThat(coverage.resolve(t).isPresent())
                    .as("resolve(%d s)", second)
                    .isEqualTo(expected.contains(second));
        }
        assertThat(actual).isEqualTo(expected);
    }

    /** A random chain of exports over [start, end): whole-table ones when index is -1, else one group's. */
    static void chain(Random r, List<ExportMetadata> exports, int index, int of, int start, int end) {
        int cursor = start + r.nextInt(100);
        while (cursor < end) {
            int length = 5 + r.nextInt(300);
            int to = Math.min(end, cursor + length);
            String id = "e" + exports.size();
            exports.add(index < 0 ? export(id, cursor, to, r.nextInt(3) == 0) : groupExport(id, index, of, cursor, to));
            cursor += length + (r.nextInt(5) == 0 ? r.nextInt(200) : -r.nextInt(Math.min(length, 40)));
        }
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
