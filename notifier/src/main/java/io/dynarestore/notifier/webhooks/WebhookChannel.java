package io.dynarestore.notifier.webhooks;

import io.dynarestore.contracts.webhooks.WebhookSignature;
import io.dynarestore.notifier.deliveries.Channel;
import io.dynarestore.notifier.deliveries.Delivery;
import io.dynarestore.notifier.deliveries.DeliveryFailed;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;

/**
 * Posts a status event to a webhook URL, signed (see {@link WebhookSignature}). A 2xx answer
 * delivers it; 408, 429, 5xx and network errors may be retried; any other answer will not change
 * by trying again.
 */
public final class WebhookChannel implements Channel {

    private final HttpClient http;
    private final String secret;
    private final Duration timeout;
    private final Clock clock;

    public WebhookChannel(String secret, Duration timeout, Clock clock) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("notifier.webhooks.signing-secret is empty; set it (for example "
                    + "whsec_ followed by 32 random bytes in base64) and give it to the systems that receive webhooks");
        }
        this.secret = secret;
        this.timeout = timeout;
        this.clock = clock;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public void send(Delivery d) throws DeliveryFailed {
        long timestamp = clock.instant().getEpochSecond();
        var request = HttpRequest.newBuilder(URI.create(d.target()))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "dynarestore-notifier")
                .header(WebhookSignature.ID, d.messageId())
                .header(WebhookSignature.TIMESTAMP, String.valueOf(timestamp))
                .header(WebhookSignature.SIGNATURE, WebhookSignature.sign(secret, d.messageId(), timestamp, d.body()))
                .POST(HttpRequest.BodyPublishers.ofByteArray(d.body()))
                .build();
        HttpResponse<Void> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new DeliveryFailed("POST " + d.target() + " failed: " + e, true, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeliveryFailed("interrupted", false, e);
        }
        int status = response.statusCode();
        if (status / 100 == 2) {
            return;
        }
        boolean retryable = status == 408 || status == 429 || status >= 500;
        throw new DeliveryFailed("POST " + d.target() + " answered " + status, retryable, null);
    }
}
