package io.dynarestore.planner.destination;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.planner.PlannerProperties;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WarmThroughputsTest {

    @ParameterizedTest(name = "{0} write units, on demand {1}, enabled {2}, at most {3}: {4}")
    @CsvSource(
            nullValues = "none",
            value = {
                // 100 million items of 1 KB in an hour instead of about 7 at the default 4,000
                "100000000, true, true, 40000, 27778",
                // what the default takes within the hour needs no warming
                "1000000, true, true, 40000, none",
                "14400000, true, true, 40000, none",
                "14400001, true, true, 40000, 4001",
                // never above the configured most
                "1000000000, true, true, 40000, 40000",
                // a provisioned table has its capacity; warming off; a most at or below the default
                "100000000, false, true, 40000, none",
                "100000000, true, false, 40000, none",
                "100000000, true, true, 4000, none"
            })
    void warmsANewOnDemandTableToWriteTheRestoreWithinTheTargetTime(
            long writeUnits, boolean onDemand, boolean enabled, long most, Long expected) {
        // Given the settings of warm throughput, the restore's write units and the table's billing
        var settings = new PlannerProperties.WarmThroughput(enabled, Duration.ofHours(1), most);

        // When the table's warm write throughput is sized
        Long warm = WarmThroughputs.writes(writeUnits, onDemand, settings);

        // Then it is what the restore needs within the hour, above the default and within the most
        assertThat(warm).isEqualTo(expected);
    }
}
