package io.dynarestore.contracts.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookSignatureTest {

    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @Test
    void signsLikeTheStandardWebhooksReferenceExample() {
        // Given the example of the Standard Webhooks specification
        byte[] body = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);

        // When it is signed
        String signature = WebhookSignature.sign(SECRET, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body);

        // Then the signature is the one the specification gives
        assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void verifiesItsOwnSignaturesAndRefusesAnyChangedByte(int seed) {
        // Given a random body, signed
        var random = new Random(seed);
        byte[] body = new byte[1 + random.nextInt(500)];
        random.nextBytes(body);
        String signature = WebhookSignature.sign("plain secret " + seed, "evt-" + seed, 1_000_000, body);

        // Then it verifies, and fails with one byte, the id, the timestamp or the secret changed
        assertThat(WebhookSignature.verify(
                        "plain secret " + seed, "evt-" + seed, 1_000_000, body, signature, 1_000_010, 300))
                .isTrue();
        byte[] changed = body.clone();
        changed[random.nextInt(body.length)] ^= 1;
        assertThat(WebhookSignature.verify(
                        "plain secret " + seed, "evt-" + seed, 1_000_000, changed, signature, 1_000_010, 300))
                .isFalse();
        assertThat(WebhookSignature.verify("plain secret " + seed, "evt-x", 1_000_000, body, signature, 1_000_010, 300))
                .isFalse();
        assertThat(WebhookSignature.verify(
                        "plain secret " + seed, "evt-" + seed, 1_000_001, body, signature, 1_000_010, 300))
                .isFalse();
        assertThat(WebhookSignature.verify("other secret", "evt-" + seed, 1_000_000, body, signature, 1_000_010, 300))
                .isFalse();
    }

    @Test
    void refusesATimestampOutsideTheTolerance() {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        String signature = WebhookSignature.sign(SECRET, "id", 1_000, body);
        assertThat(WebhookSignature.verify(SECRET, "id", 1_000, body, signature, 1_000 + 301, 300))
                .isFalse();
    }
}
