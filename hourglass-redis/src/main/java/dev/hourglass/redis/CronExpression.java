package dev.hourglass.redis;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A six-field cron expression, {@code second minute hour day-of-month month day-of-week}, and the
 * computation of its next occurrence in a time zone. Each field is {@code *}, a value, a range
 * {@code a-b}, a step <code>&#42;/n</code>, {@code a-b/n} or {@code a/n} (from a to the field's maximum,
 * Saturday for the day of the week), or a
 * comma-separated list of those; months take {@code JAN}..{@code DEC}, days of the week {@code
 * SUN}..{@code SAT} (0 and 7 are Sunday), case-insensitive; the two day fields also take {@code ?}
 * for {@code *}. A time matches when every field matches: day-of-month <em>and</em> day-of-week
 * (like Spring, unlike Vixie cron's "or").
 *
 * <p>Daylight saving: a matching local time that falls in a gap (clocks jump forward) fires once at
 * the first instant after the gap (the transition), together with any other matching times of that
 * gap; one that occurs twice (clocks fall back) fires once, at its first occurrence (the earlier,
 * summer offset).
 *
 * <p>Complexity: {@link #next} is O(days searched), at most the 400 years of a Gregorian cycle (an
 * expression that never matches, such as 30 February, is refused when parsed). Ordering: not
 * applicable. Thread-safety: immutable.
 */
final class CronExpression {
    private static final List<String> FIELDS =
            List.of("second", "minute", "hour", "day-of-month", "month", "day-of-week");
    private static final int[] MIN = {0, 0, 0, 1, 1, 0};
    private static final int[] MAX = {59, 59, 23, 31, 12, 7};
    private static final List<String> MONTHS =
            List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
    private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");
    private static final int CYCLE_YEARS = 400;

    private final String text;
    private final long[] masks = new long[FIELDS.size()]; // bit v set: value v matches

    private CronExpression(String text) {
        this.text = text;
    }

    /**
     * Parses an expression.
     *
     * @param text six fields separated by spaces
     * @return the expression
     * @throws NullPointerException if {@code text} is null
     * @throws IllegalArgumentException naming the field and the value that is wrong, or when the
     *     expression never matches
     */
    static CronExpression parse(String text) {
        Objects.requireNonNull(text, "cron expression");
        String[] fields = text.strip().split("\\s+");
        if (fields.length != FIELDS.size()) {
            throw new IllegalArgumentException("cron expression '" + text + "' must have 6 fields ("
                    + String.join(" ", FIELDS) + "), found " + (text.isBlank() ? 0 : fields.length));
        }
        CronExpression cron = new CronExpression(text);
        for (int f = 0; f < fields.length; f++) {
            cron.masks[f] = cron.parseField(f, fields[f]);
        }
        if ((cron.masks[5] & (1L << 7)) != 0) {
            cron.masks[5] = (cron.masks[5] & ~(1L << 7)) | 1L; // 7 is Sunday, like 0
        }
        if (cron.nextLocal(LocalDateTime.of(2000, 1, 1, 0, 0)) == null) {
            throw new IllegalArgumentException("cron expression '" + text + "' never matches (its day-of-month, month"
                    + " and day-of-week fields exclude every date)");
        }
        return cron;
    }

    /** Returns the expression as given. */
    String text() {
        return text;
    }

    /**
     * Returns the first instant strictly after {@code after} at which the expression fires in the
     * zone, by the daylight-saving rules of the class comment.
     *
     * @param after the instant to search from
     * @param zone the time zone whose local times the fields describe
     * @return the next instant, or null if there is none within 400 years (only past the year
     *     999,999,000)
     */
    Instant next(Instant after, ZoneId zone) {
        ZoneRules rules = zone.getRules();
        LocalDateTime t = LocalDateTime.ofInstant(after, zone)
                .truncatedTo(ChronoUnit.SECONDS)
                .plusSeconds(1);
        while (true) {
            t = nextLocal(t);
            if (t == null) {
                return null;
            }
            Instant at = resolve(t, zone, rules);
            if (at.isAfter(after)) {
                return at;
            }
            t = t.plusSeconds(1); // the first pass of a repeated hour, or a gap already behind
        }
    }

    /** The instant of a local time: a gap's transition for a time in the gap, else the earlier offset. */
    private static Instant resolve(LocalDateTime t, ZoneId zone, ZoneRules rules) {
        ZoneOffsetTransition transition = rules.getTransition(t);
        if (transition != null && transition.isGap()) {
            return transition.getInstant();
        }
        return t.atZone(zone).toInstant(); // an overlap takes the earlier offset
    }

    /** Returns the first matching local time at or after {@code t} (whole seconds), or null. */
    LocalDateTime nextLocal(LocalDateTime t) {
        int lastYear = t.getYear() + CYCLE_YEARS;
        if (lastYear > LocalDateTime.MAX.getYear() - 1) {
            return null;
        }
        while (t.getYear() <= lastYear) {
            if (!matches(4, t.getMonthValue())) {
                t = t.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay();
                continue;
            }
            if (!matches(3, t.getDayOfMonth()) || !matches(5, t.getDayOfWeek().getValue() % 7)) {
                t = t.toLocalDate().plusDays(1).atStartOfDay();
                continue;
            }
            int hour = nextBit(2, t.getHour());
            if (hour < 0) {
                t = t.toLocalDate().plusDays(1).atStartOfDay();
                continue;
            }
            if (hour != t.getHour()) {
                t = t.withHour(hour).withMinute(0).withSecond(0);
            }
            int minute = nextBit(1, t.getMinute());
            if (minute < 0) {
                t = t.withMinute(0).withSecond(0).plusHours(1);
                continue;
            }
            if (minute != t.getMinute()) {
                t = t.withMinute(minute).withSecond(0);
            }
            int second = nextBit(0, t.getSecond());
            if (second < 0) {
                t = t.withSecond(0).plusMinutes(1);
                continue;
            }
            return t.withSecond(second);
        }
        return null;
    }

    /** Returns whether a value of a field matches (day of week: 0 = Sunday .. 6). */
    boolean matches(int field, int value) {
        return (masks[field] & (1L << value)) != 0;
    }

    /** Returns whether a local date-time matches every field. */
    boolean matches(LocalDateTime t) {
        return matches(0, t.getSecond())
                && matches(1, t.getMinute())
                && matches(2, t.getHour())
                && matches(3, t.getDayOfMonth())
                && matches(4, t.getMonthValue())
                && matches(5, t.getDayOfWeek().getValue() % 7);
    }

    private int nextBit(int field, int from) {
        long bits = masks[field] & (-1L << from);
        return bits == 0 ? -1 : Long.numberOfTrailingZeros(bits);
    }

    private long parseField(int f, String field) {
        long mask = 0;
        for (String item : field.split(",", -1)) {
            mask |= parseItem(f, field, item);
        }
        return mask;
    }

    private long parseItem(int f, String field, String item) {
        String range = item;
        int step = 1;
        int slash = item.indexOf('/');
        if (slash >= 0) {
            range = item.substring(0, slash);
            step = number(f, field, item.substring(slash + 1), "step");
            if (step < 1) {
                throw bad(f, field, "step must be at least 1 in '" + item + "'");
            }
        }
        int from;
        int to;
        if (range.equals("*") || (range.equals("?") && (f == 3 || f == 5))) {
            from = MIN[f];
            to = f == 5 ? 6 : MAX[f];
        } else {
            int dash = range.indexOf('-');
            if (dash >= 0) {
                from = value(f, field, range.substring(0, dash));
                to = value(f, field, range.substring(dash + 1));
                if (from > to) {
                    throw bad(f, field, "range '" + range + "' starts after it ends");
                }
            } else {
                from = value(f, field, range);
                to = slash >= 0 ? (f == 5 ? Math.max(6, from) : MAX[f]) : from;
            }
        }
        long mask = 0;
        for (int v = from; v <= to; v += step) {
            mask |= 1L << v;
        }
        return mask;
    }

    private int value(int f, String field, String token) {
        String upper = token.toUpperCase(Locale.ROOT);
        int named = f == 4 ? MONTHS.indexOf(upper) + 1 : f == 5 ? DAYS.indexOf(upper) : -1;
        if (f == 4 && named > 0 || f == 5 && named >= 0) {
            return named;
        }
        int v = number(f, field, token, "value");
        if (v < MIN[f] || v > MAX[f]) {
            throw bad(f, field, "value " + v + " is out of range " + MIN[f] + "-" + MAX[f]);
        }
        return v;
    }

    private int number(int f, String field, String token, String what) {
        if (token.isEmpty() || token.length() > 9 || !token.chars().allMatch(c -> c >= '0' && c <= '9')) {
            String names = f == 4 ? ", or JAN-DEC" : f == 5 ? ", or SUN-SAT" : "";
            throw bad(f, field, what + " '" + token + "' is not a number" + (what.equals("value") ? names : ""));
        }
        return Integer.parseInt(token);
    }

    private IllegalArgumentException bad(int f, String field, String why) {
        return new IllegalArgumentException(
                "cron expression '" + text + "': " + FIELDS.get(f) + " field '" + field + "': " + why);
    }

    @Override
    public String toString() {
        return text;
    }
}
