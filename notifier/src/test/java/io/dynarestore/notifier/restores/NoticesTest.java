package io.dynarestore.notifier.restores;

import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.links.LinkIssued;
import io.dynarestore.contracts.notifications.NotificationEvent.Channel;
import io.dynarestore.contracts.notifications.NotificationsRequested;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Notify;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.notifier.deliveries.Delivery;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoticesTest {

    final Notices notices = new Notices("https://restore.example.com/");

    /** The notices of {@code request}'s end, with the targets the planner recorded for it, submitted by dana's portal. */
    List<Delivery> of(
            RestoreRequested request,
            ExportCompleted file,
            LinkIssued link,
            io.dynarestore.contracts.status.RestoreEvent end) {
        return notices.of(request.redacted(), "portal", NotificationsRequested.of(request), file, link, end);
    }

    static RestoreRequested request(Destination destination, Notify notify) {
        return aRestore("r-1")
                .requestedBy("dana@example.com")
                .fromBackup("orders", "b-7")
                .into(destination)
                .notifying(notify)
                .build()
                .normalized("r-1", "e-1", Instant.EPOCH);
    }

    @Test
    void sendsTheEndEventToEveryWebhookAndAMailToEveryAddress() {
        // Given a request that subscribes two webhooks and two addresses
        var request = request(
                new Destination.NewTable(null, null, "t2", null),
                new Notify(
                        List.of("a@example.com", "b@example.com"),
                        List.of("https://h.example.com/1", "https://h.example.com/2")));

        // When the restore fails
        var failed = RestoreFailed.of("r-1", "the destination table was deleted", 40);
        List<Delivery> out = of(request, null, null, failed);

        // Then each webhook gets the event itself, keyed by its id, and each address a mail with the reason
        assertThat(out)
                .filteredOn(d -> d.channel() == Channel.WEBHOOK)
                .extracting(Delivery::target)
                .containsExactly("https://h.example.com/1", "https://h.example.com/2");
        assertThat(out).filteredOn(d -> d.channel() == Channel.WEBHOOK).allSatisfy(d -> {
            assertThat(d.messageId()).isEqualTo(failed.eventId());
            assertThat(new String(d.body(), StandardCharsets.UTF_8)).contains("\"type\":\"RestoreFailed\"");
        });
        assertThat(out).filteredOn(d -> d.channel() == Channel.EMAIL).hasSize(2).allSatisfy(d -> {
            assertThat(d.subject()).isEqualTo("Restore r-1 failed");
            assertThat(new String(d.body(), StandardCharsets.UTF_8))
                    .contains("the destination table was deleted")
                    .contains("https://restore.example.com/restores/r-1");
        });
        // and every delivery has its own id, the same for the same event read again
        assertThat(out)
                .extracting(Delivery::id)
                .doesNotHaveDuplicates()
                .isEqualTo(of(request, null, null, failed).stream()
                        .map(Delivery::id)
                        .toList());
        // and neither an id nor what logs show of a target holds the target
        assertThat(out).allSatisfy(d -> assertThat(d.id() + d.shown()).doesNotContain(d.target()));
    }

    @Test
    void mailsWhatADryRunFoundAndTheVerificationOfARestore() {
        // Given a request into an existing table that mails its end
        var request = request(
                new Destination.ExistingTable(null, null, "orders-copy"),
                new Notify(List.of("a@example.com"), List.of()));
        var table = new io.dynarestore.contracts.status.TableRef("000000000000", "us-east-1", "orders-copy");

        // When its dry run ends, and then the restore itself
        var dry = RestoreCompleted.of("r-1", table, 0, 0, 3, 900)
                .dryRun(new io.dynarestore.contracts.status.Diff(5, 4, 3, 2, 1, List.of()));
        var real = RestoreCompleted.of("r-1", table, 9, 900, 3, 900)
                .verified(new io.dynarestore.contracts.status.Verification(
                        io.dynarestore.contracts.status.Verification.Status.PASSED,
                        3,
                        15,
                        "00ff",
                        6,
                        6,
                        List.of(),
                        "Counts and checksums of 3 segments compared"));

        // Then the first mail says what would change and that nothing was written, the second its verification
        String dryMail = new String(of(request, null, null, dry).get(0).body(), StandardCharsets.UTF_8);
        assertThat(dryMail)
                .contains("dry run: nothing was written")
                .contains("create 5, overwrite 4, leave 3 equal " + "and delete 2")
                .doesNotContain("Items written");
        String realMail = new String(of(request, null, null, real).get(0).body(), StandardCharsets.UTF_8);
        assertThat(realMail).contains("Items written: 9").contains("Verification: PASSED (Counts and checksums");
    }

    @Test
    void mailsTheLinkOfACompletedFileToEachRecipientAndNothingMore() {
        // Given a file restore by email link to two recipients
        var request = request(
                new Destination.File(
                        "CSV",
                        new Destination.Delivery.Email(List.of("x@example.com", "y@example.com"), "See row 7.", "l-1")),
                null);
        var link = LinkIssued.of(
                "r-1",
                "l-1",
                "TOKEN_abcdefghijklmnopqrstuvwxyz0123456789ABC",
                "$argon2id$v=19$...",
                List.of("x@example.com", "y@example.com"),
                "See row 7.",
                Instant.parse("2026-12-07T10:00:00Z"));
        var file =
                ExportCompleted.of("r-1", "vault", "_exports/r-1/orders-b-7.csv", 12, 3456, "ab".repeat(32), false, 12);

        // When it completes
        var out = of(request, file, link, RestoreCompleted.of("r-1", null, 12, 3456, 1, 900));

        // Then each recipient gets the link, the message, the expiry and the checksum, and no passcode hash
        assertThat(out).extracting(Delivery::target).containsExactly("x@example.com", "y@example.com");
        for (Delivery d : out) {
            String text = new String(d.body(), StandardCharsets.UTF_8);
            assertThat(text)
                    .contains("https://restore.example.com/links/" + link.token())
                    .contains("> See row 7.")
                    .contains("2026-12-07T10:00:00Z")
                    .contains("ab".repeat(32))
                    .contains("portal (for dana@example.com) shared")
                    .doesNotContain("argon2");
            assertThat(d.secret()).isTrue();
        }
    }

    @Test
    void mailsNoLinkWhenTheFileRestoreFailed() {
        var request = request(
                new Destination.File("CSV", new Destination.Delivery.Email(List.of("x@example.com"), null, "l-1")),
                null);
        var link = LinkIssued.of(
                "r-1",
                "l-1",
                "TOKEN_abcdefghijklmnopqrstuvwxyz0123456789ABC",
                "h",
                List.of("x@example.com"),
                null,
                Instant.now());
        assertThat(of(request, null, link, RestoreFailed.of("r-1", "S3 refused", 0)))
                .isEmpty();
    }
}
