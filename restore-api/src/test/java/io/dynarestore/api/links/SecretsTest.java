package io.dynarestore.api.links;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.HashSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SecretsTest {

    @Test
    void passcodesCarryFiftyBitsOfCrockfordBase32() {
        // Given the alphabet of 32 symbols and 10 symbols per passcode
        assertThat(Secrets.ALPHABET).hasSize(32).doesNotContain("I", "L", "O", "U");
        assertThat(Secrets.PASSCODE_LENGTH * Math.log(Secrets.ALPHABET.length()) / Math.log(2))
                .isGreaterThanOrEqualTo(40);

        // When many passcodes are drawn
        var secrets = new Secrets();
        var seen = new HashSet<String>();
        int[] counts = new int[32];
        for (int i = 0; i < 20_000; i++) {
            String code = secrets.passcode();
            assertThat(code).matches("[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}");
            seen.add(code);
            for (char c : code.replace("-", "").toCharArray()) {
                counts[Secrets.ALPHABET.indexOf(c)]++;
            }
        }

        // Then none repeats, and every symbol is about as frequent as the others (200,000 / 32 = 6,250 each)
        assertThat(seen).hasSize(20_000);
        for (int count : counts) {
            assertThat(count).isBetween(5_800, 6_700);
        }
    }

    @Test
    void tokensAreTwoHundredFiftySixBitsOfBase64Url() {
        var secrets = new Secrets(new SecureRandom());
        var seen = new HashSet<String>();
        for (int i = 0; i < 1_000; i++) {
            String token = secrets.token();
            assertThat(token).matches("[A-Za-z0-9_-]{43}");
            seen.add(token);
        }
        assertThat(seen).hasSize(1_000);
    }

    @ParameterizedTest(name = "{0} is read as {1}")
    @CsvSource({
        "ABCDE-FGH12, ABCDEFGH12",
        "abcde fgh12, ABCDEFGH12",
        "  abcdefgh12 , ABCDEFGH12",
        "0O1IL-ab-cd, 00111ABCD",
    })
    void readsAPasscodeAsPeopleTypeIt(String entered, String normalized) {
        assertThat(Secrets.normalize(entered)).isEqualTo(normalized);
    }

    @Test
    void aPasscodeAndItsNormalFormMatchTheSameHash() {
        var secrets = new Secrets();
        String code = secrets.passcode();
        assertThat(Secrets.normalize(code.toLowerCase()))
                .isEqualTo(Secrets.normalize(code))
                .doesNotContain("-");
    }
}
