package io.dynarestore.notifier.restores;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.links.LinkIssued;
import io.dynarestore.contracts.notifications.NotificationEvent.Channel;
import io.dynarestore.contracts.notifications.NotificationsRequested;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCancelled;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.Verification;
import io.dynarestore.notifier.deliveries.Delivery;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What to send when a restore ends: its end event to each subscribed webhook, a mail to each
 * address of {@code notify.emails}, and for a file sent by email link, the link to each recipient.
 *
 * <p>Rules: the link mail carries the link and never the passcode (the notifier does not know it),
 * and says who shared the file by the authenticated principal (with the requester it named, when
 * that differs), never by a name the request alone asserts. A link mail is a secret delivery.
 */
final class Notices {

    private final String publicUrl;

    Notices(String publicUrl) {
        this.publicUrl = publicUrl.endsWith("/") ? publicUrl.substring(0, publicUrl.length() - 1) : publicUrl;
    }

    /**
     * @param request   the request as RestoreAccepted carries it (redacted)
     * @param principal who submitted it, authenticated
     * @param targets   whom the request asked to tell, or {@code null}
     */
    List<Delivery> of(
            RestoreRequested request,
            String principal,
            NotificationsRequested targets,
            ExportCompleted file,
            LinkIssued link,
            RestoreEvent end) {
        var out = new ArrayList<Delivery>();
        String id = end.restoreId();
        if (targets != null) {
            byte[] json = Json.toBytes(end);
            for (String url : nonNull(targets.webhooks())) {
                out.add(new Delivery(
                        Delivery.idOf(id, "webhook", url), id, Channel.WEBHOOK, url, end.eventId(), null, json));
            }
            for (String address : nonNull(targets.emails())) {
                out.add(new Delivery(
                        Delivery.idOf(id, "end-mail", address),
                        id,
                        Channel.EMAIL,
                        address,
                        end.eventId(),
                        endSubject(id, end),
                        utf8(endText(request, end))));
            }
        }
        if (end instanceof RestoreCompleted
                && link != null
                && file != null
                && request.destination() instanceof Destination.File f
                && f.delivery() instanceof Destination.Delivery.Email) {
            for (String address : link.recipients()) {
                out.add(new Delivery(
                        Delivery.idOf(id, "link-mail", address),
                        id,
                        Channel.EMAIL,
                        address,
                        end.eventId(),
                        "A file of restored records was shared with you",
                        utf8(linkText(request, principal, file, link)),
                        true));
            }
        }
        return out;
    }

    private static String endSubject(String id, RestoreEvent end) {
        return "Restore " + id
                + (end instanceof RestoreCompleted
                        ? " completed"
                        : end instanceof RestoreCancelled ? " cancelled" : " failed");
    }

    private String endText(RestoreRequested request, RestoreEvent end) {
        var text = new StringBuilder();
        text.append(endSubject(end.restoreId(), end))
                .append('.')
                .append("\n\nSource: ")
                .append(describe(request.source()))
                .append('\n');
        if (end instanceof RestoreCompleted c) {
            if (c.destination() != null) {
                text.append("Destination: table ")
                        .append(c.destination().tableName())
                        .append(" (account ")
                        .append(c.destination().account())
                        .append(", ")
                        .append(c.destination().region())
                        .append(")\n");
            }
            if (c.diff() != null) {
                var d = c.diff();
                text.append("This was a dry run: nothing was written. The restore would create ")
                        .append(d.create())
                        .append(", overwrite ")
                        .append(d.overwrite())
                        .append(", leave ")
                        .append(d.equal())
                        .append(" equal and delete ")
                        .append(d.delete())
                        .append(" items.\n");
            } else {
                text.append("Items written: ").append(c.itemsWritten()).append('\n');
            }
            if (c.verification() != null && c.verification().status() != Verification.Status.SKIPPED) {
                text.append("Verification: ")
                        .append(c.verification().status())
                        .append(" (")
                        .append(c.verification().note())
                        .append(")\n");
            }
            text.append("Duration: ")
                    .append(Duration.ofMillis(c.durationMs()).toSeconds())
                    .append(" s\n");
        } else if (end instanceof RestoreCancelled c) {
            text.append("It was cancelled. ").append(c.note()).append('\n');
        } else if (end instanceof RestoreFailed f) {
            text.append("What went wrong: ")
                    .append(f.reason())
                    .append('\n')
                    .append("Items written before it stopped: ")
                    .append(f.itemsWritten())
                    .append('\n');
        }
        text.append("\nDetails: ")
                .append(publicUrl)
                .append("/restores/")
                .append(end.restoreId())
                .append('\n');
        return text.toString();
    }

    private String linkText(RestoreRequested request, String principal, ExportCompleted file, LinkIssued link) {
        var text = new StringBuilder();
        String by = principal == null || principal.equals(RestoreAccepted.UNIDENTIFIED)
                ? "An unidentified sender"
                : principal;
        text.append(by);
        if (request.requestedBy() != null && !request.requestedBy().equals(principal)) {
            text.append(" (for ").append(request.requestedBy()).append(')');
        }
        text.append(" shared a file of records restored from DynamoDB with you.\n\n");
        if (link.message() != null && !link.message().isBlank()) {
            text.append("Their message:\n");
            link.message()
                    .lines()
                    .forEach(line -> text.append("  > ").append(line).append('\n'));
            text.append('\n');
        }
        text.append("Open this link to download it:\n  ")
                .append(publicUrl)
                .append("/links/")
                .append(link.token())
                .append("\n\nThe link asks for a passcode. The sender gives it to you another way (phone, chat); ")
                .append("it is never sent by email. The link works until ")
                .append(link.expiresAt())
                .append(" and locks after repeated wrong passcodes.\n\n")
                .append("File: ")
                .append(file.key().substring(file.key().lastIndexOf('/') + 1))
                .append(", ")
                .append(file.items())
                .append(" records, ")
                .append(file.bytes())
                .append(" bytes, SHA-256 ")
                .append(file.sha256())
                .append('\n')
                .append("Source: ")
                .append(describe(request.source()))
                .append('\n');
        return text.toString();
    }

    private static String describe(Source s) {
        String at = s.backupId() != null
                ? "backup " + s.backupId()
                : s.pointInTime() != null ? "point in time " + s.pointInTime() : "Snap " + s.snapId();
        return "table " + s.table() + ", " + at;
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
