package io.dynarestore.planner.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentCounts;
import io.dynarestore.contracts.status.SourceRef;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.contracts.status.Verification;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The per-segment checks of the verification (the read-back is covered by UndoableRestoresIT). */
class VerifierTest {

    static final TableRef TABLE = new TableRef("000000000000", "us-east-1", "orders");

    static RestorePlanned plan(int segments) {
        return RestorePlanned.of(
                "r",
                RestorePlanned.Strategy.ITEM_WRITES,
                new SourceRef("000000000000", "us-east-1", "orders", "b1", Instant.EPOCH),
                TABLE,
                segments,
                0,
                false,
                100,
                1000,
                100,
                null);
    }

    /** A segment whose lines are all accounted for: written, found equal, deleted or skipped. */
    record Segment(SegmentCounts counts, SegmentCompleted.Check check) {
        static Segment consistent(Random r) {
            long written = r.nextInt(50);
            long equal = r.nextInt(10);
            long deleted = r.nextInt(5);
            long skipped = r.nextInt(5);
            long lines = written + equal + deleted + skipped;
            String sum = Long.toHexString(r.nextLong());
            return new Segment(
                    new SegmentCounts(new SegmentCompleted.Counts(written, 0, equal, deleted, skipped), written * 100),
                    new SegmentCompleted.Check(lines, lines, sum, sum, List.of()));
        }
    }

    enum Fault {
        NONE,
        LINE_LOST,
        CHECKSUM,
        SHORT_FILE,
        NO_CHECK
    }

    static Stream<Object[]> cases() {
        return IntStream.range(0, 60).mapToObj(seed ->
                new Object[] {seed, Fault.values()[seed % Fault.values().length]});
    }

    @ParameterizedTest(name = "seed {0}: {1}")
    @MethodSource("cases")
    void passesConsistentSegmentsAndNamesTheSegmentOfEachMismatch(int seed, Fault fault) {
        // Given a restore of 1 to 8 segments whose writers reported consistent checks
        Random r = new Random(seed);
        int segments = 1 + r.nextInt(8);
        Map<Integer, SegmentCounts> completed = new HashMap<>();
        Map<Integer, SegmentCompleted.Check> checks = new HashMap<>();
        for (int i = 0; i < segments; i++) {
            var s = Segment.consistent(r);
            completed.put(i, s.counts());
            checks.put(i, s.check());
        }

        // When one segment is damaged in the way of the case
        int bad = r.nextInt(segments);
        var c = checks.get(bad);
        switch (fault) {
            case LINE_LOST ->
                completed.compute(
                        bad,
                        (k, n) -> new SegmentCounts(
                                new SegmentCompleted.Counts(
                                        n.lines().written() + 1,
                                        0,
                                        n.lines().unchanged(),
                                        n.lines().deleted(),
                                        n.lines().skipped()),
                                n.bytesWritten())); // counted as written, but the lines do not add up
            case CHECKSUM ->
                checks.put(
                        bad,
                        new SegmentCompleted.Check(
                                c.lines(), c.expectedLines(), c.sourceChecksum(), "0000000000000001", List.of()));
            case SHORT_FILE ->
                checks.put(
                        bad,
                        new SegmentCompleted.Check(
                                c.lines(), c.expectedLines() + 1, c.sourceChecksum(), c.appliedChecksum(), List.of()));
            case NO_CHECK -> checks.remove(bad);
            default -> {}
        }
        Verification v = Verifier.verify(plan(segments), completed, checks, null, "orders");

        // Then it passes only when nothing was damaged, and otherwise names the damaged segment alone
        if (fault == Fault.NONE) {
            assertThat(v.status()).isEqualTo(Verification.Status.PASSED);
            assertThat(v.mismatches()).isEmpty();
            assertThat(v.segmentsChecked()).isEqualTo(segments);
            assertThat(v.linesChecked())
                    .isEqualTo(checks.values().stream()
                            .mapToLong(SegmentCompleted.Check::lines)
                            .sum());
        } else {
            assertThat(v.status()).isEqualTo(Verification.Status.FAILED);
            assertThat(v.mismatches())
                    .isNotEmpty()
                    .allSatisfy(m -> assertThat(m).startsWith("segment " + bad + ":"));
            assertThat(v.mismatches().get(0))
                    .contains(
                            switch (fault) {
                                case LINE_LOST -> "add up to more than its";
                                case CHECKSUM -> "checksum";
                                case SHORT_FILE -> "manifest says";
                                default -> "reported no check";
                            });
        }
    }
}
