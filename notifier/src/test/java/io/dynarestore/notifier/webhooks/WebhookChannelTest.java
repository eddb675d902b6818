package io.dynarestore.notifier.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.dynarestore.contracts.notifications.NotificationEvent.Channel;
import io.dynarestore.contracts.webhooks.WebhookTargets;
import io.dynarestore.core.webhooks.WebhookAddresses;
import io.dynarestore.notifier.deliveries.Delivery;
import io.dynarestore.notifier.deliveries.DeliveryFailed;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The webhook channel against a real HTTP receiver on loopback, with host names resolved by a
 * fixed table (as a DNS server under an attacker's control would answer): the connection goes to
 * the address that was checked, and a name that resolves inside the network is refused when
 * delivering, whatever it resolved to before.
 */
class WebhookChannelTest {

    static final String SECRET = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
    static HttpServer receiver;
    static final AtomicInteger hits = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            hits.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterAll
    static void stop() {
        receiver.stop(0);
    }

    static Delivery to(String url) {
        return new Delivery("r/webhook/x", "r", Channel.WEBHOOK, url, "m-1", null, "{}".getBytes());
    }

    static WebhookChannel channel(List<String> allow, WebhookAddresses.Resolver dns) {
        return new WebhookChannel(
                SECRET,
                Duration.ofSeconds(2),
                Clock.systemUTC(),
                new WebhookAddresses(new WebhookTargets(true, allow), dns, Duration.ofSeconds(1)));
    }

    @Test
    void refusesANameThatResolvesInsideTheNetworkWhenDelivering() throws Exception {
        // Given a name that resolved to a public address when the request was taken, and now (rebinding) to loopback
        var answers = new AtomicInteger();
        WebhookAddresses.Resolver dns = host ->
                new InetAddress[] {InetAddress.getByName(answers.getAndIncrement() == 0 ? "93.184.216.34" : "127.0.0.1")
                };
        var intake = new WebhookAddresses(new WebhookTargets(true, List.of()), dns, Duration.ofSeconds(1));
        String url = "http://rebind.example.com:" + receiver.getAddress().getPort() + "/hook";
        assertThat(intake.refusal(url)).isNull();
        int before = hits.get();

        // When the notifier delivers to it
        try (var channel = channel(List.of(), dns)) {
            // Then the delivery is refused for good, naming the address, and the receiver got nothing
            assertThatThrownBy(() -> channel.send(to(url)))
                    .isInstanceOf(DeliveryFailed.class)
                    .hasMessageContaining("resolves to 127.0.0.1")
                    .satisfies(e -> assertThat(((DeliveryFailed) e).retryable()).isFalse());
        }
        assertThat(hits.get()).isEqualTo(before);
    }

    @Test
    void connectsToTheAddressItCheckedAndToNoOther() throws Exception {
        // Given an operator who allows hooks.corp.internal, which the table resolves to the loopback receiver
        WebhookAddresses.Resolver dns = host -> {
            if (!host.equals("hooks.corp.internal")) {
                throw new java.net.UnknownHostException(host);
            }
            return new InetAddress[] {InetAddress.getByName("127.0.0.1")};
        };
        int before = hits.get();

        // When a webhook is posted to it
        try (var channel = channel(List.of("hooks.corp.internal"), dns)) {
            channel.send(
                    to("http://hooks.corp.internal:" + receiver.getAddress().getPort() + "/hook"));
        }

        // Then it arrived: the only way to reach the receiver was the address the check returned
        assertThat(hits.get()).isEqualTo(before + 1);
    }

    @Test
    void refusesLiteralAddressesInsideTheNetworkWithoutConnecting() throws Exception {
        int before = hits.get();
        try (var channel = channel(List.of(), host -> InetAddress.getAllByName(host))) {
            assertThatThrownBy(() -> channel.send(
                            to("http://127.0.0.1:" + receiver.getAddress().getPort() + "/")))
                    .isInstanceOf(DeliveryFailed.class)
                    .hasMessageContaining("loopback");
            assertThatThrownBy(() -> channel.send(to("http://169.254.169.254/latest/meta-data/")))
                    .isInstanceOf(DeliveryFailed.class)
                    .hasMessageContaining("link-local");
        }
        assertThat(hits.get()).isEqualTo(before);
    }
}
