package io.dynarestore.contracts.protection;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * A backup schedule in the five fields of Unix cron, in UTC: minute (0-59), hour (0-23), day of
 * month (1-31), month (1-12 or JAN-DEC) and day of week (0-7 or SUN-SAT, 0 and 7 both Sunday). Each
 * field is {@code *}, a value, a range {@code a-b}, a step {@code *}{@code /n} or {@code a-b/n}, or a
 * comma-separated list of those. As in cron, when both day fields are restricted a day matches
 * either. Each firing time starts a slot, the way {@code every} slots do: the backup due at an
 * instant is the latest firing at or before it.
 */
public final class CronSchedule {

    private static final List<String> MONTHS =
            List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
    private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");
    /** Far enough back for any schedule that fires at all (a 29 February falls within eight years). */
    private static final int DAYS_BACK = 8 * 366 + 1;

    private final String text;
    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final BitSet months;
    private final BitSet daysOfWeek;
    private final boolean anyDayOfMonth;
    private final boolean anyDayOfWeek;

    private CronSchedule(String text, String[] f) {
        this.text = text;
        this.minutes = field("minute", f[0], 0, 59, List.of(), 0);
        this.hours = field("hour", f[1], 0, 23, List.of(), 0);
        this.daysOfMonth = field("day of month", f[2], 1, 31, List.of(), 0);
        this.months = field("month", f[3], 1, 12, MONTHS, 1);
        BitSet dow = field("day of week", f[4], 0, 7, DAYS, 0);
        if (dow.get(7)) {
            dow.set(0);
        }
        this.daysOfWeek = dow;
        this.anyDayOfMonth = f[2].equals("*");
        this.anyDayOfWeek = f[4].equals("*");
    }

    /** Parses {@code text}, or throws an {@link IllegalArgumentException} that says which field is wrong and why. */
    public static CronSchedule parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("give five fields: minute hour day-of-month month day-of-week, "
                    + "such as '0 3 * * *' (every day at 03:00 UTC)");
        }
        String[] fields = text.trim().split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException(
                    "'" + text + "' has " + fields.length + " fields; give five: minute hour "
                            + "day-of-month month day-of-week, such as '0 3 * * *' (every day at 03:00 UTC)");
        }
        var schedule = new CronSchedule(text.trim(), fields);
        if (schedule.latestAtOrBefore(Instant.parse("2100-01-01T00:00:00Z")) == null) {
            throw new IllegalArgumentException("'" + text + "' never fires (no such day)");
        }
        return schedule;
    }

    /** The latest firing at or before {@code t} (to the minute), or null when there is none in eight years. */
    public Instant latestAtOrBefore(Instant t) {
        LocalDateTime at = LocalDateTime.ofInstant(t, ZoneOffset.UTC).truncatedTo(ChronoUnit.MINUTES);
        LocalDate day = at.toLocalDate();
        for (int back = 0; back < DAYS_BACK; back++, day = day.minusDays(1)) {
            if (!dayMatches(day)) {
                continue;
            }
            int lastMinuteOfDay = back == 0 ? at.getHour() * 60 + at.getMinute() : 24 * 60 - 1;
            for (int hour = lastMinuteOfDay / 60; hour >= 0; hour--) {
                if (!hours.get(hour)) {
                    continue;
                }
                int fromMinute = hour == lastMinuteOfDay / 60 ? lastMinuteOfDay % 60 : 59;
                int minute = minutes.previousSetBit(fromMinute);
                if (minute >= 0) {
                    return day.atTime(hour, minute).toInstant(ZoneOffset.UTC);
                }
            }
        }
        return null;
    }

    private boolean dayMatches(LocalDate day) {
        if (!months.get(day.getMonthValue())) {
            return false;
        }
        boolean dom = daysOfMonth.get(day.getDayOfMonth());
        boolean dow = daysOfWeek.get(day.getDayOfWeek().getValue() % 7);
        if (anyDayOfMonth || anyDayOfWeek) {
            return dom && dow;
        }
        return dom || dow;
    }

    private static BitSet field(String name, String text, int min, int max, List<String> names, int firstName) {
        var bits = new BitSet(max + 1);
        for (String part : text.split(",", -1)) {
            String range = part;
            int step = 1;
            int slash = part.indexOf('/');
            if (slash >= 0) {
                range = part.substring(0, slash);
                step = number(name, part.substring(slash + 1), 1, max, List.of(), 0);
            }
            int lo;
            int hi;
            if (range.equals("*")) {
                lo = min;
                hi = max;
            } else if (range.indexOf('-') > 0) {
                lo = number(name, range.substring(0, range.indexOf('-')), min, max, names, firstName);
                hi = number(name, range.substring(range.indexOf('-') + 1), min, max, names, firstName);
                if (hi < lo) {
                    throw new IllegalArgumentException("the " + name + " range '" + range + "' runs backwards");
                }
            } else {
                lo = number(name, range, min, max, names, firstName);
                hi = slash >= 0 ? max : lo;
            }
            for (int v = lo; v <= hi; v += step) {
                bits.set(v);
            }
        }
        return bits;
    }

    private static int number(String name, String text, int min, int max, List<String> names, int firstName) {
        int named = names.indexOf(text.toUpperCase(Locale.ROOT));
        if (named >= 0) {
            return named + firstName;
        }
        try {
            int v = Integer.parseInt(text);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // told below
        }
        throw new IllegalArgumentException("the " + name + " field's '" + text + "' is not a number from " + min
                + " to " + max + (names.isEmpty() ? "" : " or a name such as " + names.get(0)));
    }

    @Override
    public String toString() {
        return text;
    }
}
