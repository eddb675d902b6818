package io.dynarestore.notifier.alerts;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.notifications.NotificationEvent.Channel;
import io.dynarestore.contracts.protection.DrillFailed;
import io.dynarestore.notifier.deliveries.Delivery;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What to send when a restore drill fails: the {@link DrillFailed} event to each alert webhook
 * (signed like a restore's end), and a mail saying which table, why and where to look to each alert
 * address.
 *
 * <p>Rule: one delivery per drill and target, named by the drill's restore, so that an event read
 * again (a restart, a rebalance, the protector reporting twice) alerts nobody twice.
 */
final class DrillAlerts {

    private final AlertTargets targets;
    private final String publicUrl;

    DrillAlerts(AlertTargets targets, String publicUrl) {
        this.targets = targets;
        this.publicUrl = publicUrl.endsWith("/") ? publicUrl.substring(0, publicUrl.length() - 1) : publicUrl;
    }

    List<Delivery> of(DrillFailed failed) {
        var out = new ArrayList<Delivery>();
        String id = failed.restore();
        byte[] json = Json.toBytes(failed);
        for (String url : targets.webhooks()) {
            out.add(new Delivery(
                    Delivery.idOf(id, "drill-alert", url), id, Channel.WEBHOOK, url, failed.eventId(), null, json));
        }
        for (String address : targets.emails()) {
            out.add(new Delivery(
                    Delivery.idOf(id, "drill-mail", address),
                    id,
                    Channel.EMAIL,
                    address,
                    failed.eventId(),
                    subject(failed),
                    text(failed).getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    static String subject(DrillFailed f) {
        return "Restore drill of " + f.table() + " failed";
    }

    private String text(DrillFailed f) {
        var text = new StringBuilder()
                .append("The restore drill ")
                .append(f.drillId())
                .append(" of table ")
                .append(f.table())
                .append(" (account ")
                .append(f.account())
                .append(", ")
                .append(f.region())
                .append(") failed: its backups may not restore when they are needed.\n\n")
                .append("Why: ")
                .append(f.reason())
                .append('\n')
                .append("Restored: ")
                .append(f.source())
                .append(" into ")
                .append(f.scratchTable())
                .append(" (deleted since, if it was made)\n");
        if (f.items() != null) {
            text.append("Items written and verified: ").append(f.items()).append('\n');
        }
        if (f.tookMs() != null) {
            text.append("Took: ")
                    .append(Duration.ofMillis(f.tookMs()).toSeconds())
                    .append(" s\n");
        }
        return text.append("\nThe drill's restore: ")
                .append(publicUrl)
                .append("/restores/")
                .append(f.restore())
                .append('\n')
                .toString();
    }
}
