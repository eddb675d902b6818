package io.dynarestore.notifier.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.notifications.NotificationEvent.Channel;
import io.dynarestore.contracts.protection.DrillFailed;
import io.dynarestore.notifier.deliveries.Delivery;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class DrillAlertsTest {

    static final AlertTargets TARGETS = new AlertTargets(
            List.of("https://hooks.example.com/drills?token=t1", "https://pager.example.com/x"),
            List.of("oncall@example.com"));

    static DrillFailed failed(String reason) {
        return DrillFailed.of(
                "123456789012",
                "eu-west-1",
                "orders",
                "20261207T0600Z-drill",
                "drill-20261207T0600Z-ab12",
                "backup b-9",
                "orders-drill-20261207T0600Z",
                61_000L,
                298L,
                reason);
    }

    @Test
    void sendsTheEventToEachWebhookAndAMailToEachAddress() {
        // Given two webhooks and one address
        var alerts = new DrillAlerts(TARGETS, "https://restore.example.com/");

        // When a drill fails
        var failed = failed("verification failed: 2 of 300 items differ");
        List<Delivery> out = alerts.of(failed);

        // Then each webhook gets the event as it is on the topic, and the address a mail
        assertThat(out).extracting(Delivery::channel).containsExactly(Channel.WEBHOOK, Channel.WEBHOOK, Channel.EMAIL);
        assertThat(out).extracting(Delivery::restoreId).containsOnly(failed.restore());
        assertThat(out).extracting(Delivery::messageId).containsOnly(failed.eventId());
        assertThat(out.get(0).body()).isEqualTo(Json.toBytes(failed));
        var mail = out.get(2);
        assertThat(mail.subject()).isEqualTo("Restore drill of orders failed");
        assertThat(new String(mail.body(), StandardCharsets.UTF_8))
                .contains("table orders (account 123456789012, eu-west-1)")
                .contains("Why: verification failed: 2 of 300 items differ")
                .contains("Restored: backup b-9 into orders-drill-20261207T0600Z")
                .contains("Items written and verified: 298")
                .contains("Took: 61 s")
                .contains("https://restore.example.com/restores/drill-20261207T0600Z-ab12");
    }

    @Test
    void namesEachAlertByTheDrillAndTargetSoThatAnEventReadAgainIsSentOnce() {
        // Given the same failure reported twice (two events, two event ids)
        var alerts = new DrillAlerts(TARGETS, "https://restore.example.com");
        var first = alerts.of(failed("the restore failed"));
        var again = alerts.of(failed("the restore failed"));

        // Then the deliveries have the same ids, distinct per target, none of which shows a target
        assertThat(again)
                .extracting(Delivery::id)
                .isEqualTo(first.stream().map(Delivery::id).toList());
        assertThat(first).extracting(Delivery::id).doesNotHaveDuplicates();
        assertThat(first)
                .extracting(Delivery::id)
                .allSatisfy(id -> assertThat(id).doesNotContain("token").doesNotContain("oncall"));
    }

    @Test
    void sendsNothingWhenNobodyIsToBeAlerted() {
        var alerts = new DrillAlerts(new AlertTargets(List.of(), List.of()), "https://restore.example.com");
        assertThat(alerts.of(failed("the restore failed"))).isEmpty();
    }
}
