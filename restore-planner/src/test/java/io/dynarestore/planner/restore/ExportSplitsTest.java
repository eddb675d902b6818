package io.dynarestore.planner.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.planner.PlannerProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ExportSplitsTest {

    static Stream<Integer> seeds() {
        return IntStream.range(0, 200).boxed();
    }

    static List<ManifestFile> files(Random random, int count) {
        var files = new ArrayList<ManifestFile>();
        for (int i = 0; i < count; i++) {
            // mostly full files, some small, the last often short
            long items = random.nextInt(5) == 0 ? random.nextInt(100) : 4_000 + random.nextInt(50);
            files.add(new ManifestFile(items, null, null, "f" + i));
        }
        return files;
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void cutsTheFilesIntoContiguousNonEmptyRangesOfAboutTheSameItems(int seed) {
        // Given a random backup's files and a number of parts no greater than the files
        var random = new Random(seed);
        var files = files(random, 2 + random.nextInt(60));
        int parts = 1 + random.nextInt(Math.min(files.size(), 16));

        // When they are cut
        int[] cuts = ExportSplits.cuts(files, parts);

        // Then the ranges cover every file once, in order, none empty
        assertThat(cuts).hasSize(parts + 1);
        assertThat(cuts[0]).isZero();
        assertThat(cuts[parts]).isEqualTo(files.size());
        for (int p = 0; p < parts; p++) {
            assertThat(cuts[p + 1]).as("part %d is not empty", p).isGreaterThan(cuts[p]);
        }
        // and no part holds more than its share plus the largest file (the cut is at a file's edge),
        // unless it has only one file
        long total = files.stream().mapToLong(ManifestFile::itemCount).sum();
        long largest = files.stream().mapToLong(ManifestFile::itemCount).max().orElseThrow();
        for (int p = 0; p < parts; p++) {
            long items = 0;
            for (int i = cuts[p]; i < cuts[p + 1]; i++) {
                items += files.get(i).itemCount();
            }
            if (cuts[p + 1] - cuts[p] > 1) {
                assertThat(items).as("part %d of %d", p, parts).isLessThanOrEqualTo(total / parts + 2 * largest);
            }
        }
    }

    @ParameterizedTest(name = "{0} items in {1} files, {2} exporters, at most {3} parts: {4}")
    @CsvSource({
        // at or below the threshold: whole, whatever the fleet
        "2000000, 10, 4, 16, 1",
        "10, 10, 4, 16, 1",
        // above it: a part per exporter
        "2000001, 10, 4, 16, 4",
        "5000000, 10, 2, 16, 2",
        // one exporter, or none the group can tell of: whole
        "5000000, 10, 1, 16, 1",
        "5000000, 10, 0, 16, 1",
        // no more parts than files, nor than max-parts
        "5000000, 3, 8, 16, 3",
        "5000000, 1, 8, 16, 1",
        "5000000, 100, 40, 16, 16"
    })
    void splitsOnlyLargeBackupsOfSeveralFilesOverSeveralExporters(
            long items, int files, int exporters, int maxParts, int parts) {
        var partitions = IntStream.range(0, exporters).boxed().toList();
        var splits = new ExportSplits(() -> partitions, new PlannerProperties.Exports(2_000_000, "exporter", maxParts));
        assertThat(splits.parts(items, files)).isEqualTo(parts);
    }

    @Test
    void refusesMorePartsThanFiles() {
        var files = files(new Random(1), 3);
        assertThatThrownBy(() -> ExportSplits.cuts(files, 4)).hasMessageContaining("4 parts of 3 data files");
    }
}
