package io.dynarestore.writer.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

class OnDemandBudgetTest {

    static final WriteBudgets.Settings DEFAULTS =
            new WriteBudgets.Settings(0.8, 4_000, 4_000, 0.1, 0.02, 0.05, Duration.ofSeconds(30));

    @ParameterizedTest(name = "warm {0} ({1}), most {2}, after {3} min: {4} WCU/s")
    @CsvSource(
            nullValues = "none",
            value = {
                // a table as DynamoDB creates it: 4,000 at once, the target 4,000
                "none, none, none, 0, 4000",
                "none, none, none, 120, 4000",
                // created warm for the restore: its warm throughput from the first second
                "27778, ACTIVE, none, 0, 27778",
                "27778, none, none, 0, 27778",
                // not warm yet while DynamoDB is still warming it
                "27778, UPDATING, none, 0, 4000",
                // a warm throughput below the target changes nothing
                "2000, ACTIVE, none, 0, 4000",
                // never above the table's own most
                "27778, ACTIVE, 10000, 0, 10000"
            })
    void followsTheTablesWarmThroughputWithinItsMostWriteRate(
            Long warm, TableStatus status, Long most, long minutes, double expected) {
        // Given an on-demand table as DescribeTable reads it
        var table = TableDescription.builder();
        if (warm != null) {
            table.warmThroughput(w -> w.writeUnitsPerSecond(warm).status(status));
        }
        if (most != null) {
            table.onDemandThroughput(o -> o.maxWriteRequestUnits(most));
        }

        // When its budget is read some minutes into the restore
        double budget = WriteBudgets.onDemandBudget(
                DEFAULTS, table.build(), Duration.ofMinutes(minutes).toNanos());

        // Then the writers write at its warm throughput where it has one
        assertThat(budget).isEqualTo(expected);
    }
}
