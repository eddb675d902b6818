package io.dynarestore.contracts.notifications;

import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.request.RestoreRequested;
import java.time.Instant;
import java.util.List;

/**
 * Whom to tell when an accepted restore ends: the {@code notify} targets of its request, which
 * the planner publishes on {@code restore.notifications} (readable only by the notifier) before it
 * accepts the restore, so that they never reach {@code restore.status}. Checked at intake; the
 * notifier checks each webhook's addresses again when it delivers.
 */
public record NotificationsRequested(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        List<String> emails,
        List<String> webhooks)
        implements NotificationEvent {

    /** The targets of {@code request}, or {@code null} when it names none. */
    public static NotificationsRequested of(RestoreRequested request) {
        var notify = request.notification();
        List<String> emails = notify == null || notify.emails() == null ? List.of() : List.copyOf(notify.emails());
        List<String> webhooks =
                notify == null || notify.webhooks() == null ? List.of() : List.copyOf(notify.webhooks());
        if (emails.isEmpty() && webhooks.isEmpty()) {
            return null;
        }
        return new NotificationsRequested(
                Envelope.newEventId(),
                request.restoreId(),
                SCHEMA_VERSION,
                Envelope.now(),
                emails.isEmpty() ? null : emails,
                webhooks.isEmpty() ? null : webhooks);
    }
}
