package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import java.time.Instant;
import java.util.ArrayList;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * A table's change timeline over the REST API, counted from the vault in S3: every step's counts
 * equal a brute-force count of the test's own write log, and a mass delete is flagged at its step
 * with the second before it as a restorable restore point.
 */
class ChangeTimelineIT {

    static final long SECOND = HistoryFixtures.SECOND;

    @RegisterExtension
    static final StackSession on = new StackSession();

    @Test
    void countsEveryStepAsTheWriteLogDoesAndFlagsAMassDeleteWithTheSecondBeforeIt() throws Exception {
        // Given a live table with a history in the vault, then a mass delete
        long t0 = (Instant.now().getEpochSecond() - 130) * SECOND + 500_000;
        var history = new RandomHistory(31, RandomItems.Shape.simple(), 60, 150, t0, 90 * SECOND);
        HistoryFixtures.liveTable(on.stack(), "timeline-it", history, RandomItems.Shape.simple(), t0, 7);
        var deletes = HistoryFixtures.massDelete(on.stack(), "timeline-it", history, t0);
        var log = new ArrayList<>(history.writes());
        log.addAll(deletes);

        // When its activity is asked for by the second, over the history and the delete
        Instant from = Instant.ofEpochSecond(t0 / SECOND - 5);
        Instant to = Instant.ofEpochSecond(t0 / SECOND + 105);
        var response =
                Http.get(on.stack().apiUri("/tables/timeline-it/activity?step=SECOND&from=" + from + "&to=" + to));
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonNode activity = response.json();
        // (and the command line answers the same)
        JsonNode byCli = Cli.run(
                on.stack().apiUri(""), "activity", "timeline-it", from.toString(), to.toString(), "--step", "SECOND");
        assertThat(byCli.get("steps")).isEqualTo(activity.get("steps"));
        assertThat(byCli.get("flags")).isEqualTo(activity.get("flags"));

        // Then each step counts what the write log holds in it
        var expected = new TreeMap<Instant, String>();
        for (long s = from.getEpochSecond(); s < to.getEpochSecond(); s++) {
            expected.put(Instant.ofEpochSecond(s), "0c 0o 0d");
        }
        var counts = new TreeMap<Instant, long[]>();
        for (var w : log) {
            var step = Instant.ofEpochSecond(Math.floorDiv(w.micros(), SECOND));
            long[] c = counts.computeIfAbsent(step, k -> new long[3]);
            c[w.newImage() == null ? 2 : w.oldImage() == null ? 0 : 1]++;
        }
        counts.forEach((step, c) -> expected.put(step, c[0] + "c " + c[1] + "o " + c[2] + "d"));
        var read = new TreeMap<Instant, String>();
        activity.get("steps")
                .forEach(s -> read.put(
                        Instant.parse(s.get("start").asString()),
                        s.get("creates").asLong() + "c " + s.get("overwrites").asLong() + "o "
                                + s.get("deletes").asLong() + "d"));
        assertThat(read).isEqualTo(expected);
        assertThat(activity.get("complete").asBoolean()).isTrue();

        // and the mass delete is the one run flagged, its restore point the second before its first delete's
        long burst = deletes.get(0).micros();
        assertThat(activity.get("flags")).hasSize(1);
        JsonNode flag = activity.get("flags").get(0);
        assertThat(flag.get("signals").toString()).contains("MASS_DELETE");
        Instant suggested = Instant.parse(flag.get("suggestedSecond").asString());
        assertThat(suggested.getEpochSecond()).isEqualTo(Math.floorDiv(burst, SECOND) - 1);
        assertThat(flag.get("restorable").asBoolean()).isTrue();
    }
}
