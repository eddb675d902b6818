package io.dynarestore.notifier.deliveries;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.notifications.NotificationDelivered;
import io.dynarestore.contracts.notifications.NotificationEvent.Channel;
import io.dynarestore.contracts.notifications.NotificationsRequested;
import io.dynarestore.core.kafka.ConsumerHealth;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The notifier's fold of restore.notifications stays bounded: what is older than a restore may stay open goes. */
class DeliveryLogTest {

    @Test
    void forgetsTargetsAndFinishedDeliveriesOlderThanTheRetention() {
        var log = new DeliveryLog(Map.of(), null, new ConsumerHealth(), Duration.ofDays(8));
        log.fold(new NotificationsRequested(
                "e1", "r-1", 1, Instant.parse("2026-11-01T00:00:00Z"), List.of("a@example.com"), null));
        log.fold(NotificationDelivered.of("r-1", "r-1/end-mail/abc", Channel.EMAIL, "a@example.com", 1));
        assertThat(log.targets("r-1")).isPresent();

        log.forgetBefore(Instant.parse("2026-11-02T00:00:00Z"));

        assertThat(log.targets("r-1")).isEmpty();
        assertThat(log.finished("r-1/end-mail/abc")).isTrue(); // recorded just now: kept
        log.forgetBefore(Instant.now().plusSeconds(1));
        assertThat(log.finished("r-1/end-mail/abc")).isFalse();
    }
}
