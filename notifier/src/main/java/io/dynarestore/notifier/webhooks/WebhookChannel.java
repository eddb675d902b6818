package io.dynarestore.notifier.webhooks;

import io.dynarestore.contracts.webhooks.WebhookSignature;
import io.dynarestore.core.threads.DaemonThreads;
import io.dynarestore.core.webhooks.WebhookAddresses;
import io.dynarestore.notifier.deliveries.Channel;
import io.dynarestore.notifier.deliveries.Delivery;
import io.dynarestore.notifier.deliveries.DeliveryFailed;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * Posts a status event to a webhook URL, signed (see {@link WebhookSignature}). A 2xx answer
 * delivers it; 408, 429, 5xx and network errors may be retried; any other answer will not change
 * by trying again.
 *
 * <p>Rules: the URL passes {@link io.dynarestore.contracts.webhooks.WebhookTargets} again, and
 * its host's addresses are resolved and checked by {@link WebhookAddresses} at the moment of
 * connecting, by the client's own DNS hook, so the connection goes only to an address that was
 * checked (a name that resolves inside the network the second time, DNS rebinding, is refused).
 * No redirect is followed, no proxy used, and a try ends after {@code timeout} however the
 * receiver behaves (also one that trickles bytes); its answer's body is never read.
 */
public final class WebhookChannel implements Channel, AutoCloseable {

    private static final ScheduledExecutorService DEADLINES =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("webhook-deadlines"));

    private final CloseableHttpClient http;
    private final String secret;
    private final Duration timeout;
    private final Clock clock;
    private final WebhookAddresses addresses;

    public WebhookChannel(String secret, Duration timeout, Clock clock, WebhookAddresses addresses) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("notifier.webhooks.signing-secret is empty; set it (for example "
                    + "whsec_ followed by 32 random bytes in base64) and give it to the systems that receive webhooks");
        }
        this.secret = secret;
        this.timeout = timeout;
        this.clock = clock;
        this.addresses = addresses;
        Timeout t = Timeout.of(timeout);
        this.http = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(new CheckedResolver(addresses))
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(t)
                                .setSocketTimeout(t)
                                .build())
                        .setMaxConnTotal(64)
                        .setMaxConnPerRoute(4)
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(t)
                        .setResponseTimeout(t)
                        .build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableContentCompression()
                .setUserAgent("dynarestore-notifier")
                .build();
    }

    @Override
    public void send(Delivery d) throws DeliveryFailed {
        String refused = addresses.rule().refusal(d.target());
        if (refused != null) {
            throw new DeliveryFailed("the webhook URL " + refused, false, null);
        }
        long timestamp = clock.instant().getEpochSecond();
        var post = new HttpPost(d.target());
        post.setHeader(WebhookSignature.ID, d.messageId());
        post.setHeader(WebhookSignature.TIMESTAMP, String.valueOf(timestamp));
        post.setHeader(WebhookSignature.SIGNATURE, WebhookSignature.sign(secret, d.messageId(), timestamp, d.body()));
        post.setEntity(new ByteArrayEntity(d.body(), ContentType.APPLICATION_JSON));
        var deadline = DEADLINES.schedule(post::cancel, timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
        int status;
        try (var response = http.executeOpen(null, post, null)) {
            status = response.getCode();
        } catch (WebhookAddresses.RefusedTarget e) {
            throw new DeliveryFailed("the webhook URL " + e.getMessage(), false, e);
        } catch (UnknownHostException e) {
            throw new DeliveryFailed("POST to " + d.shown() + " failed: its host does not resolve", true, e);
        } catch (IOException e) {
            throw new DeliveryFailed(
                    "POST to " + d.shown() + " failed: "
                            + (post.isCancelled()
                                    ? "no answer within "
                                            + timeout.multipliedBy(2).toSeconds() + " s"
                                    : e.toString()),
                    true,
                    e);
        } finally {
            deadline.cancel(false);
        }
        if (status / 100 == 2) {
            return;
        }
        boolean retryable = status == 408 || status == 429 || status >= 500;
        throw new DeliveryFailed("POST to " + d.shown() + " answered " + status, retryable, null);
    }

    @Override
    public void close() throws IOException {
        http.close();
    }

    /** The client's DNS: only addresses {@link WebhookAddresses} checked, refused ones as a {@code RefusedTarget}. */
    private record CheckedResolver(WebhookAddresses addresses) implements DnsResolver {
        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            return addresses.resolve(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        }

        @Override
        public String resolveCanonicalHostname(String host) throws UnknownHostException {
            return host;
        }
    }
}
