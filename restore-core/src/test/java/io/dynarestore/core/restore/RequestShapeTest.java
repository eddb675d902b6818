package io.dynarestore.core.restore;

import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Notify;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.webhooks.WebhookTargets;
import io.dynarestore.core.restore.RestoreValidator.Verdict;
import io.dynarestore.core.webhooks.WebhookAddresses;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rules on a request's shape, each with the field it names and the fix it says. */
class RequestShapeTest {

    /** The rule with a fixed resolver: hooks.example.com is a public address. */
    static final WebhookAddresses WEBHOOKS = new WebhookAddresses(
            new WebhookTargets(false, List.of()),
            host -> new InetAddress[] {InetAddress.getByAddress(host, new byte[] {93, (byte) 184, (byte) 215, 14})},
            Duration.ofSeconds(2));

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(
                        "a dry run of a new table",
                        aRestore("r").dryRun().build(),
                        "/dryRun",
                        "EXISTING_TABLE or IN_PLACE"),
                Arguments.of(
                        "a webhook to a private address",
                        aRestore("r")
                                .notifying(new Notify(
                                        null, List.of("https://hooks.example.com/ok", "https://10.0.0.7/hook")))
                                .build(),
                        "/notify/webhooks/1",
                        "notify.webhooks[1]"),
                Arguments.of(
                        "a file of a point in time",
                        aRestore("r")
                                .from(new Source(
                                        "000000000000", "us-east-1", "orders", null, "2026-11-30T10:15:42Z", null))
                                .into(new Destination.File(null, new Destination.Delivery.Download()))
                                .build(),
                        "/source/pointInTime",
                        "Name a backupId"),
                Arguments.of(
                        "a file that is not CSV",
                        aRestore("r")
                                .into(new Destination.File("JSON", new Destination.Delivery.Download()))
                                .build(),
                        "/destination/format",
                        "set format to CSV"),
                Arguments.of(
                        "an email link not issued by restore-api",
                        aRestore("r")
                                .into(new Destination.File(
                                        null, new Destination.Delivery.Email(List.of("a@example.com"), null, null)))
                                .build(),
                        "/destination/delivery",
                        "POST /restores"),
                Arguments.of(
                        "an in-place restore into another account",
                        aRestore("r")
                                .into(new Destination.InPlace("111111111111", null))
                                .build(),
                        "/destination/account",
                        "cannot cross to account 111111111111"),
                Arguments.of(
                        "an in-place restore into another region",
                        aRestore("r")
                                .into(new Destination.InPlace(null, "eu-west-1"))
                                .build(),
                        "/destination/region",
                        "cannot cross to region eu-west-1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesARequestOfTheWrongShapeNamingTheFieldAndTheFix(
            String what, RestoreRequested request, String field, String fix) {
        // When the shape of the request is checked
        Verdict verdict = RequestShape.check(request, WEBHOOKS);

        // Then it is refused, naming the field and saying what to do
        assertThat(verdict).isInstanceOf(Verdict.Problem.class);
        var problem = (Verdict.Problem) verdict;
        assertThat(problem.code()).isIn(RejectionCode.INVALID_REQUEST, RejectionCode.UNSUPPORTED);
        assertThat(problem.errors()).extracting(e -> e.field()).containsExactly(field);
        assertThat(problem.reason()).contains(fix);
    }

    @Test
    void takesWellShapedRequestsOfEveryDestination() {
        for (RestoreRequested request : List.of(
                aRestore("r").build(),
                aRestore("r").inPlace().dryRun().build(),
                aRestore("r")
                        .into(new Destination.InPlace("000000000000", "us-east-1"))
                        .build(),
                aRestore("r")
                        .into(new Destination.File("CSV", new Destination.Delivery.Download()))
                        .build(),
                aRestore("r")
                        .notifying(new Notify(List.of("ops@example.com"), List.of("https://hooks.example.com/t")))
                        .build())) {
            assertThat(RequestShape.check(request, WEBHOOKS))
                    .as(request.toString())
                    .isNull();
        }
    }
}
