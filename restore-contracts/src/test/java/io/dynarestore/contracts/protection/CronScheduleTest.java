package io.dynarestore.contracts.protection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CronScheduleTest {

    static Stream<Arguments> firings() {
        return Stream.of(
                Arguments.of("0 3 * * *", "2026-12-01T10:00:00Z", "2026-12-01T03:00:00Z"),
                Arguments.of("0 3 * * *", "2026-12-01T02:59:59Z", "2026-11-30T03:00:00Z"),
                Arguments.of("0 3 * * *", "2026-12-01T03:00:00Z", "2026-12-01T03:00:00Z"),
                Arguments.of("*/15 * * * *", "2026-12-01T10:44:10Z", "2026-12-01T10:30:00Z"),
                Arguments.of("5,35 8-10 * * *", "2026-12-01T11:00:00Z", "2026-12-01T10:35:00Z"),
                Arguments.of("0 0 1 * *", "2026-12-15T00:00:00Z", "2026-12-01T00:00:00Z"),
                Arguments.of("0 0 * * SUN", "2026-12-01T00:00:00Z", "2026-11-29T00:00:00Z"),
                Arguments.of("0 0 * * 7", "2026-12-01T00:00:00Z", "2026-11-29T00:00:00Z"),
                Arguments.of("0 12 1 JAN *", "2026-12-01T00:00:00Z", "2026-01-01T12:00:00Z"),
                // both day fields restricted: either matches, as in cron (the 15th, or any Monday)
                Arguments.of("0 0 15 * MON", "2026-12-02T00:00:00Z", "2026-11-30T00:00:00Z"),
                Arguments.of("0 0 29 2 *", "2026-12-01T00:00:00Z", "2024-02-29T00:00:00Z"));
    }

    @ParameterizedTest(name = "{0} at {1}")
    @MethodSource("firings")
    void theSlotIsTheLatestFiringAtOrBeforeNow(String cron, String now, String expected) {
        assertThat(CronSchedule.parse(cron).latestAtOrBefore(Instant.parse(now)))
                .isEqualTo(Instant.parse(expected));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "",
                "0 3 * *",
                "60 * * * *",
                "* 24 * * *",
                "* * 0 * *",
                "* * * 13 *",
                "* * * * 8",
                "5-1 * * * *",
                "*/0 * * * *",
                "x * * * *",
                "0 0 31 2 *"
            })
    void aScheduleThatCannotFireOrReadIsRefusedWithTheReason(String cron) {
        assertThatThrownBy(() -> CronSchedule.parse(cron))
                .isInstanceOf(IllegalArgumentException.class)
                .message()
                .isNotBlank();
    }

    static Stream<Arguments> seeds() {
        return IntStream.range(0, 40).mapToObj(Arguments::of);
    }

    /** Random schedules against a brute-force walk back minute by minute. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void agreesWithAMinuteByMinuteWalkBack(int seed) {
        var random = new Random(seed);
        String cron = String.join(
                " ",
                field(random, 0, 59),
                field(random, 0, 23),
                field(random, 1, 28),
                random.nextInt(3) == 0 ? field(random, 1, 12) : "*",
                random.nextInt(2) == 0 ? field(random, 0, 6) : "*");
        var schedule = CronSchedule.parse(cron);
        Instant now = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(random.nextInt(365 * 24 * 3600));
        Instant found = schedule.latestAtOrBefore(now);
        LocalDateTime walk = LocalDateTime.ofInstant(now, ZoneOffset.UTC).truncatedTo(ChronoUnit.MINUTES);
        while (!matches(cron, walk)) {
            walk = walk.minusMinutes(1);
        }
        assertThat(found).as(cron + " at " + now).isEqualTo(walk.toInstant(ZoneOffset.UTC));
    }

    private static String field(Random random, int min, int max) {
        int a = min + random.nextInt(max - min + 1);
        int b = a + random.nextInt(max - a + 1);
        return switch (random.nextInt(4)) {
            case 0 -> Integer.toString(a);
            case 1 -> a + "-" + b;
            case 2 -> "*/" + (1 + random.nextInt(Math.max(1, (max - min) / 2)));
            default -> a + "," + b;
        };
    }

    private static boolean matches(String cron, LocalDateTime t) {
        String[] f = cron.split(" ");
        boolean dom = in(f[2], t.getDayOfMonth(), 1, 31);
        boolean dow = in(f[4], t.getDayOfWeek().getValue() % 7, 0, 6);
        boolean day = f[2].equals("*") || f[4].equals("*") ? dom && dow : dom || dow;
        return in(f[0], t.getMinute(), 0, 59)
                && in(f[1], t.getHour(), 0, 23)
                && in(f[3], t.getMonthValue(), 1, 12)
                && day;
    }

    private static boolean in(String field, int v, int min, int max) {
        for (String part : field.split(",")) {
            if (part.equals("*")) {
                return true;
            }
            if (part.startsWith("*/")) {
                if ((v - min) % Integer.parseInt(part.substring(2)) == 0) {
                    return true;
                }
            } else if (part.contains("-")) {
                String[] r = part.split("-");
                if (v >= Integer.parseInt(r[0]) && v <= Integer.parseInt(r[1])) {
                    return true;
                }
            } else if (v == Integer.parseInt(part)) {
                return true;
            }
        }
        return false;
    }
}
