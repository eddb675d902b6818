package io.dynarestore.protector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProtectorPropertiesTest {

    static ProtectorProperties withSigningKey(String key) {
        return new ProtectorProperties(null, null, null, "protector", null, null, null, null, key);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   "})
    void publishesDrillRequestsUnsignedWhenNoKeyIsSet(String key) {
        assertThat(withSigningKey(key).signingKey()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"weak-key", "0123456789012345678901234567890"})
    void refusesToStartWithAKeyShorterThan32CharactersAndSaysWhereToSetIt(String key) {
        assertThatThrownBy(() -> withSigningKey(key))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("protector.signing-key is shorter than 32 characters")
                .hasMessageContaining("PROTECTOR_SIGNING_KEY")
                .hasMessageContaining("planner.access.keys.protector")
                .hasMessageNotContaining(key);
    }

    @ParameterizedTest
    @ValueSource(strings = {"01234567890123456789012345678901", "local-only-protector-signing-key-0123456789"})
    void takesAKeyOf32CharactersOrMore(String key) {
        assertThat(withSigningKey(key).signingKey()).isEqualTo(key);
    }
}
