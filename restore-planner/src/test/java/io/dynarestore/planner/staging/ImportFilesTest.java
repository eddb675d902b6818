package io.dynarestore.planner.staging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImportFilesTest {

    @ParameterizedTest(name = "{1} items at {0} a file: {2} a file")
    @CsvSource({
        "100000, 1000000, 100000",
        "100000, 5000000000, 100000",
        // more than 50,000 files at the configured size: larger files instead
        "100000, 5000000001, 100001",
        "1000, 100000000, 2000",
        "10, 0, 10"
    })
    void stagesNoMoreFilesThanOneImportTableMayRead(int configured, long items, int expected) {
        // When the items per staged file are chosen for a restore of that many items
        int perFile = ImportStager.linesPerFile(configured, items);

        // Then they are the configured number, or enough that the files stay within the quota
        assertThat(perFile).isEqualTo(expected);
        assertThat((items + perFile - 1) / perFile).isLessThanOrEqualTo(ImportStager.MAX_IMPORT_OBJECTS);
    }
}
