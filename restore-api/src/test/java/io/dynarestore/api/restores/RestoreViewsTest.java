package io.dynarestore.api.restores;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Notify;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.RestoreRequests;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.core.kafka.ConsumerHealth;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tasks view stays bounded: ended restores age out, and a view keeps only the outline of an ended request. */
class RestoreViewsTest {

    static final Instant LONG_AGO = Instant.parse("2026-11-01T00:00:00Z");

    final RestoreViews views = new RestoreViews(Map.of(), new ConsumerHealth(), Duration.ofDays(8), 3);

    static RestoreRequested request(String id) {
        var filters = new Scope.Records(
                List.of(new Scope.KeyFilter(new Scope.Condition("EqualTo", List.of("x".repeat(10_000))), null)), null);
        return RestoreRequests.aRestore(id)
                .requestedBy("ann")
                .fromBackup("orders", "b-1")
                .scope(filters)
                .into(new Destination.NewTable(RestoreRequests.ACCOUNT, RestoreRequests.REGION, "t-" + id, null))
                .notifying(new Notify(List.of("ops@example.com"), List.of("https://hooks.example.com/t0ken")))
                .normalizedAt(LONG_AGO);
    }

    static <E extends RestoreEvent> E at(E event, Instant when) {
        // events as a replay reads them: with their own time
        return io.dynarestore.contracts.Json.mapper()
                .readValue(
                        io.dynarestore.contracts.Json.mapper()
                                .writeValueAsString(event)
                                .replace(event.occurredAt().toString(), when.toString()),
                        (Class<E>) event.getClass());
    }

    @Test
    void forgetsRestoresThatEndedLongerAgoThanTheRetentionAndKeepsRunningOnes() {
        // Given two restores that ended long ago and one that is running
        for (String id : List.of("old-1", "old-2")) {
            views.apply(at(RestoreAccepted.of(request(id)), LONG_AGO));
            views.apply(at(RestoreCompleted.of(id, null, 1, 1, 1, 1), LONG_AGO));
        }
        views.apply(at(RestoreAccepted.of(request("running")), LONG_AGO));

        // When the view ages out
        views.ageOut(LONG_AGO.plus(Duration.ofDays(9)));

        // Then only the running one is left
        assertThat(views.find("old-1")).isEmpty();
        assertThat(views.find("old-2")).isEmpty();
        assertThat(views.find("running")).isPresent();
    }

    @Test
    void keepsAtMostTheConfiguredNumberOfEndedRestoresTheOldestGoingFirst() {
        Instant now = Instant.now();
        for (int i = 0; i < 6; i++) {
            String id = "r-" + i;
            views.apply(at(RestoreAccepted.of(request(id)), now.minusSeconds(100 - i)));
            views.apply(at(RestoreCompleted.of(id, null, 1, 1, 1, 1), now.minusSeconds(100 - i)));
        }
        views.ageOut(now);
        assertThat(views.all()).extracting(s -> s.restoreId()).containsExactlyInAnyOrder("r-3", "r-4", "r-5");
    }

    @Test
    void keepsOnlyTheOutlineOfAnEndedRequestAndNeverItsNotificationTargets() {
        // Given a restore with a 10 KB filter and notification targets
        views.apply(RestoreAccepted.of(request("big")));
        assertThat(views.request("big").orElseThrow().notification().webhooks()).isNull();

        // When it ends
        views.apply(RestoreCompleted.of("big", null, 1, 1, 1, 1));

        // Then its filters are gone, but the same request is still recognised as the same
        var kept = views.request("big").orElseThrow();
        assertThat(((Scope.Records) kept.scope()).keyFilters()).isEmpty();
        assertThat(io.dynarestore.contracts.Json.toBytes(kept).length).isLessThan(1_000);
        assertThat(views.sameRequest("big", request("big"))).isTrue();
        assertThat(views.sameRequest("big", request("other"))).isFalse();
    }

    @Test
    void anIdWhoseRestoreAgedOutStartsANewRestoreWhenAcceptedAgain() {
        views.apply(at(RestoreAccepted.of(request("reused")), LONG_AGO));
        views.apply(at(RestoreCompleted.of("reused", null, 1, 1, 1, 1), LONG_AGO));
        views.apply(RestoreAccepted.of(request("reused")));
        assertThat(views.find("reused").orElseThrow().state()).hasToString("ACCEPTED");
    }
}
