package io.dynarestore.planner.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.work.DeltaPartDispatched;
import io.dynarestore.contracts.work.SweepPartDispatched;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PlanningPartWorkerTest {

    static final String SWEEP = "{\"type\":\"SweepPartDispatched\",\"eventId\":\"e\",\"restoreId\":\"r-1\","
            + "\"schemaVersion\":1,\"occurredAt\":\"2026-12-01T10:00:00Z\",\"attempt\":\"abc123\","
            + "\"part\":1,\"parts\":2}";

    @Test
    void readsADeltaPartAndASweepPartAsWhatTheySay() {
        // Given a delta part and a sweep part as the owner sends them
        byte[] delta = Json.toBytes(DeltaPartDispatched.of("r-1", "abc123", 0, 2));
        byte[] sweep = Json.toBytes(SweepPartDispatched.of("r-1", "abc123", 1, 2));

        // When they are read, then each is the part it was
        assertThat(PlanningPartWorker.parse(delta)).isInstanceOf(DeltaPartDispatched.class);
        assertThat(PlanningPartWorker.parse(sweep))
                .isInstanceOf(SweepPartDispatched.class)
                .satisfies(w -> assertThat(w.part()).isEqualTo(1));
        assertThat(PlanningPartWorker.parse(SWEEP.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SweepPartDispatched.class);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\"attempt\":\"abc123\"|\"attempt\":\"../../x\"", // would become a vault key
                "\"part\":1|\"part\":2", // no part 2 of 2
                "\"parts\":2|\"parts\":65", // more parts than any planning has
                "SweepPartDispatched|ScanSegmentRequested", // not planning work
                "SweepPartDispatched|", // no type
                "\"restoreId\":\"r-1\",|", // no restore
            })
    void refusesARecordThatIsNotAPart(String change) {
        // Given a sweep part with one field made hostile
        String[] fromTo = change.split("\\|", -1);
        byte[] hostile = SWEEP.replace(fromTo[0], fromTo[1]).getBytes(StandardCharsets.UTF_8);

        // When it is read, then it is not a part (it goes to the dead-letter topic)
        assertThat(PlanningPartWorker.parse(hostile)).isNull();
    }

    @Test
    void refusesBytesThatAreNotJson() {
        assertThat(PlanningPartWorker.parse("{not json".getBytes(StandardCharsets.UTF_8)))
                .isNull();
        assertThat(PlanningPartWorker.parse(new byte[0])).isNull();
    }
}
