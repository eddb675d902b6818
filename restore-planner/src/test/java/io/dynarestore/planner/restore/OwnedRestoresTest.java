package io.dynarestore.planner.restore;

import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The planner's restores stay bounded: ended ones are forgotten after the retention, running ones never. */
class OwnedRestoresTest {

    static final Instant THEN = Instant.parse("2026-11-01T00:00:00Z");

    static RestoreRequested request(String id) {
        return aRestore(id)
                .fromBackup("orders", "b-1")
                .scope(null)
                .intoNewTable("t")
                .build()
                .normalized(id, "e", THEN);
    }

    @SuppressWarnings("unchecked")
    static <E extends RestoreEvent> E at(E event, Instant when) {
        return (E) Json.mapper()
                .readValue(
                        Json.mapper()
                                .writeValueAsString(event)
                                .replace(event.occurredAt().toString(), when.toString()),
                        event.getClass());
    }

    @Test
    void forgetsEndedRestoresAfterTheRetentionButNotRunningOnesNorOnesWithCapacityToPutBack() {
        var owned = new OwnedRestores(Duration.ofDays(8));
        owned.own(0);
        owned.forEvent(0, at(RestoreAccepted.of(request("ended")), THEN))
                .applyFromLog(at(RestoreAccepted.of(request("ended")), THEN));
        owned.get(0, "ended").applyFromLog(at(RestoreCompleted.of("ended", null, 1, 1, 1, 1), THEN));
        owned.getOrCreate(0, "running").applyFromLog(at(RestoreAccepted.of(request("running")), THEN));

        int forgotten = owned.forgetEnded(THEN.plus(Duration.ofDays(9)));

        assertThat(forgotten).isEqualTo(1);
        assertThat(owned.get(0, "ended")).isNull();
        assertThat(owned.get(0, "running")).isNotNull();
    }

    @Test
    void anAcceptanceOfAnIdWhoseRestoreEndedLongAgoStartsAFreshOne() {
        var owned = new OwnedRestores(Duration.ofDays(8));
        owned.own(0);
        var old = owned.getOrCreate(0, "again");
        old.applyFromLog(at(RestoreAccepted.of(request("again")), THEN));
        old.applyFromLog(at(RestoreCompleted.of("again", null, 1, 1, 1, 1), THEN));

        Instant later = THEN.plus(Duration.ofDays(30));
        var fresh = owned.forEvent(0, at(RestoreAccepted.of(request("again")), later));

        assertThat(fresh).isNotSameAs(old);
        assertThat(fresh.view.state()).isNull();
        assertThat(owned.current(0, "again", later)).isSameAs(fresh);
    }
}
