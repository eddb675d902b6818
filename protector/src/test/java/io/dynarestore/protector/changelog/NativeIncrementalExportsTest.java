package io.dynarestore.protector.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.protector.changelog.NativeIncrementalExports.Window;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which window a native incremental change log exports next: chained without gaps, each starting at a backup or the last end. */
class NativeIncrementalExportsTest {

    static final Instant H10 = Instant.parse("2026-12-01T10:00:00Z");
    static final Duration PERIOD = Duration.ofMinutes(15);

    static Instant at(String hhmm) {
        return Instant.parse("2026-12-01T" + hhmm + ":00Z");
    }

    static Stream<Arguments> chains() {
        return Stream.of(
                Arguments.of(
                        "the first export starts at the first backup inside the recovery window",
                        null,
                        List.of(at("08:00"), at("10:00"), at("11:00")),
                        at("09:00"),
                        at("12:00"),
                        Optional.of(new Window(at("10:00"), at("10:15")))),
                Arguments.of(
                        "the next export starts where the last one ended",
                        at("10:15"),
                        List.of(at("10:00")),
                        at("09:00"),
                        at("12:00"),
                        Optional.of(new Window(at("10:15"), at("10:30")))),
                Arguments.of(
                        "nothing is due while the window's end is not restorable yet",
                        at("11:50"),
                        List.of(at("10:00")),
                        at("09:00"),
                        at("12:00"),
                        Optional.empty()),
                Arguments.of(
                        "a window ending exactly at the latest restorable instant is due",
                        at("11:45"),
                        List.of(at("10:00")),
                        at("09:00"),
                        at("12:00"),
                        Optional.of(new Window(at("11:45"), at("12:00")))),
                Arguments.of(
                        "a chain recovery no longer reaches restarts at the first backup after its end",
                        at("10:15"),
                        List.of(at("10:00"), at("11:00"), at("11:30")),
                        at("10:40"),
                        at("12:00"),
                        Optional.of(new Window(at("11:00"), at("11:15")))),
                Arguments.of(
                        "without a backup inside the recovery window nothing can start",
                        null,
                        List.of(at("08:00")),
                        at("09:00"),
                        at("12:00"),
                        Optional.empty()),
                Arguments.of(
                        "a broken chain waits for a backup taken after it",
                        at("10:15"),
                        List.of(at("10:00")),
                        at("10:40"),
                        at("12:00"),
                        Optional.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void choosesTheNextWindowOfTheChain(
            String name,
            Instant chainEnd,
            List<Instant> backups,
            Instant earliest,
            Instant latest,
            Optional<Window> expected) {
        // Given a chain's end, the table's backups and its recovery window; When the next window is asked for
        var next = NativeIncrementalExports.next(chainEnd, backups, earliest, latest, PERIOD);

        // Then it is the expected one
        assertThat(next).isEqualTo(expected);
    }

    static Stream<Arguments> tails() {
        Instant accepted = Instant.parse("2026-12-01T11:52:30.400Z");
        return Stream.of(
                Arguments.of(
                        "the tail runs from the chain's end to the acceptance, in whole seconds",
                        at("11:00"),
                        accepted,
                        at("12:00"),
                        Optional.of(new Window(at("11:00"), Instant.parse("2026-12-01T11:52:30Z")))),
                Arguments.of(
                        "it ends at the latest restorable second when recovery trails the acceptance",
                        at("11:00"),
                        accepted,
                        at("11:47"),
                        Optional.of(new Window(at("11:00"), at("11:47")))),
                Arguments.of(
                        "no tail shorter than DynamoDB's shortest incremental export",
                        at("11:45"),
                        accepted,
                        at("11:59"),
                        Optional.empty()),
                Arguments.of(
                        "a window of exactly the shortest is taken",
                        at("11:30"),
                        accepted,
                        at("11:45"),
                        Optional.of(new Window(at("11:30"), at("11:45")))),
                Arguments.of(
                        "a chain that recovery no longer reaches gets no tail (the next step restarts it)",
                        at("08:30"),
                        accepted,
                        at("12:00"),
                        Optional.empty()),
                Arguments.of("a chain not started yet gets no tail", null, accepted, at("12:00"), Optional.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tails")
    void choosesTheTailWindowARestoreAsksFor(
            String name, Instant chainEnd, Instant target, Instant latest, Optional<Window> expected) {
        // Given a chain's end, a restore accepted at target and recovery from 09:00 to latest;
        // When the tail window is asked for (DynamoDB's shortest export: 15 minutes)
        var tail = NativeIncrementalExports.tail(chainEnd, target, at("09:00"), latest, PERIOD);

        // Then it is the expected one
        assertThat(tail).isEqualTo(expected);
    }
}
