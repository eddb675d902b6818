package io.dynarestore.contracts.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MessageSignatureTest {

    static final String KEY = "k".repeat(40);
    static final byte[] BODY = "{\"restoreId\":\"r-1\"}".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void provesExactlyTheSignedPrincipalCallerTopicAndBody(int seed) {
        // Given a message signed by a principal
        var random = new Random(seed);
        byte[] body = new byte[random.nextInt(500)];
        random.nextBytes(body);
        String signature = MessageSignature.sign(KEY, "restore.requests", "orders-service", "ann", body);

        // Then it verifies with the key, also among others (rotation), and nothing else does
        assertThat(MessageSignature.verify(List.of(KEY), "restore.requests", "orders-service", "ann", body, signature))
                .isTrue();
        assertThat(MessageSignature.verify(
                        List.of("o".repeat(40), KEY), "restore.requests", "orders-service", "ann", body, signature))
                .isTrue();
        byte[] changed = body.clone();
        if (changed.length > 0) {
            changed[random.nextInt(changed.length)] ^= 1;
            assertThat(MessageSignature.verify(
                            List.of(KEY), "restore.requests", "orders-service", "ann", changed, signature))
                    .isFalse();
        }
        assertThat(MessageSignature.verify(List.of(KEY), "restore.requests", "restore-api", "ann", body, signature))
                .isFalse();
        assertThat(MessageSignature.verify(List.of(KEY), "restore.requests", "orders-service", "bob", body, signature))
                .isFalse();
        assertThat(MessageSignature.verify(List.of(KEY), "restore.commands", "orders-service", "ann", body, signature))
                .isFalse();
        assertThat(MessageSignature.verify(
                        List.of("o".repeat(40)), "restore.requests", "orders-service", "ann", body, signature))
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "v1=", "v1=!!!", "v2=abc", "abc"})
    void refusesSignaturesThatAreNotOnes(String signature) {
        assertThat(MessageSignature.verify(List.of(KEY), "restore.requests", "p", null, BODY, signature))
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "short-key"})
    void callsShortKeysWeak(String key) {
        assertThat(MessageSignature.weakness(key)).isNotNull();
        assertThat(MessageSignature.weakness(KEY)).isNull();
    }
}
