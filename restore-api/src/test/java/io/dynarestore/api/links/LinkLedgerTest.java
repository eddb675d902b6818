package io.dynarestore.api.links;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.links.LinkIssued;
import io.dynarestore.contracts.links.PasscodeAccepted;
import io.dynarestore.contracts.links.PasscodeTried;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class LinkLedgerTest {

    static IntStream seeds() {
        return IntStream.range(0, 30);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void countsAsWrongEveryEarlierTryThatNoAcceptanceFollowed(int seed) {
        // Given a link and a random sequence of tries, some of them accepted, at increasing offsets
        var random = new Random(seed);
        var ledger = new LinkLedger();
        ledger.apply(
                LinkIssued.of(
                        "r-1",
                        "l-1",
                        "token-" + seed,
                        "hash",
                        List.of("a@example.com"),
                        null,
                        Instant.now().plusSeconds(60)),
                0);
        int tries = 1 + random.nextInt(20);
        boolean[] accepted = new boolean[tries];
        long offset = 1;
        long[] offsets = new long[tries];
        for (int i = 0; i < tries; i++) {
            offsets[i] = offset;
            ledger.apply(PasscodeTried.of("r-1", "l-1", "t" + i), offset++);
            if (random.nextInt(3) == 0) {
                accepted[i] = true;
                ledger.apply(PasscodeAccepted.of("r-1", "l-1", "t" + i), offset++);
            }
        }

        // Then before each try, the wrong ones are exactly the earlier tries that were not accepted
        var link = ledger.byToken("token-" + seed).orElseThrow();
        for (int i = 0; i < tries; i++) {
            int expected = 0;
            for (int j = 0; j < i; j++) {
                expected += accepted[j] ? 0 : 1;
            }
            assertThat(link.unacceptedBefore(offsets[i])).isEqualTo(expected);
        }
        int all = 0;
        for (boolean a : accepted) {
            all += a ? 0 : 1;
        }
        assertThat(link.unaccepted()).isEqualTo(all);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void findsALinkOnlyByItsWholeToken(int seed) {
        var ledger = new LinkLedger();
        String token = "tok" + new Random(seed).nextLong();
        ledger.apply(LinkIssued.of("r", "l", token, "h", List.of("a@example.com"), null, Instant.now()), 0);
        assertThat(ledger.byToken(token)).isPresent();
        assertThat(ledger.byToken(token.substring(1))).isEmpty();
        assertThat(ledger.byToken(token + "x")).isEmpty();
        assertThat(ledger.byToken(null)).isEmpty();
    }
}
