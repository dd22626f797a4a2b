package dev.hourglass.redis;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;

/**
 * How a recurring timer repeats, for {@link RedisTimers#scheduleRecurring}: at a fixed rate, with a
 * fixed delay between runs, or on a cron expression in a time zone; and what happens to occurrences
 * missed while no node could run them ({@link MissedRunPolicy}, {@link MissedRunPolicy#RUN_ONCE} by
 * default, an occurrence counting as missed when it is claimed more than 1 minute after its slot by
 * default).
 *
 * <ul>
 *   <li>{@link #fixedRate}: slots every period from the first, which is one period after the
 *       schedule (Redis's clock). Occurrences of one series never overlap: a run longer than the
 *       period makes the next one late, and the missed-run policy decides about it.
 *   <li>{@link #fixedDelay}: the next slot is the delay after the previous occurrence ended
 *       (acknowledged, failed for good or skipped), by Redis's clock.
 *   <li>{@link #cron}: the slots of a six-field cron expression ({@code second minute hour
 *       day-of-month month day-of-week}) in a zone, daylight saving handled as docs/redis.md says: a
 *       time in a gap fires at the end of the gap, a repeated time fires once, the first time.
 * </ul>
 *
 * <p>Complexity: O(1), a cron expression O(its length) to parse. Ordering: not applicable.
 * Thread-safety: immutable.
 */
public final class Recurrence {
    private static final Duration DEFAULT_MISSED_AFTER = Duration.ofMinutes(1);

    /** The three ways a series repeats. */
    enum Kind {
        RATE,
        DELAY,
        CRON
    }

    private final Kind kind;
    private final long periodMillis; // RATE and DELAY
    private final CronExpression cron; // CRON
    private final ZoneId zone; // CRON
    private final MissedRunPolicy policy;
    private final long missedAfterMillis;

    private Recurrence(
            Kind kind, long periodMillis, CronExpression cron, ZoneId zone, MissedRunPolicy policy, long missedAfter) {
        this.kind = kind;
        this.periodMillis = periodMillis;
        this.cron = cron;
        this.zone = zone;
        this.policy = policy;
        this.missedAfterMillis = missedAfter;
    }

    /**
     * Repeats every period, the first slot one period after the schedule.
     *
     * @param period a whole number of milliseconds, at least 1 ms and at most 2^52 ms
     * @return the recurrence
     * @throws NullPointerException if {@code period} is null
     * @throws IllegalArgumentException if the period is out of range or not whole milliseconds
     */
    public static Recurrence fixedRate(Duration period) {
        return new Recurrence(
                Kind.RATE,
                millis("period", period, 1),
                null,
                null,
                MissedRunPolicy.RUN_ONCE,
                DEFAULT_MISSED_AFTER.toMillis());
    }

    /**
     * Repeats with a delay between the end of one occurrence and the slot of the next, the first slot
     * one delay after the schedule.
     *
     * @param delay a whole number of milliseconds, at least 1 ms and at most 2^52 ms
     * @return the recurrence
     * @throws NullPointerException if {@code delay} is null
     * @throws IllegalArgumentException if the delay is out of range or not whole milliseconds
     */
    public static Recurrence fixedDelay(Duration delay) {
        return new Recurrence(
                Kind.DELAY,
                millis("delay", delay, 1),
                null,
                null,
                MissedRunPolicy.RUN_ONCE,
                DEFAULT_MISSED_AFTER.toMillis());
    }

    /**
     * Repeats at the slots of a cron expression in a time zone; the syntax is in docs/redis.md: six
     * fields {@code second minute hour day-of-month month day-of-week}, each {@code *}, a value, a
     * range, a step or a list of those, month and day names, day-of-month and day-of-week both
     * required to match.
     *
     * @param expression for example {@code "0 0 9 * * MON-FRI"}
     * @param zone the zone whose local times the expression describes, e.g. {@code Europe/Berlin}
     * @return the recurrence
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException naming the field and the value that is wrong, or if the
     *     expression never matches
     */
    public static Recurrence cron(String expression, ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        return new Recurrence(
                Kind.CRON,
                0,
                CronExpression.parse(expression),
                zone,
                MissedRunPolicy.RUN_ONCE,
                DEFAULT_MISSED_AFTER.toMillis());
    }

    /**
     * Returns a copy with another missed-run policy.
     *
     * @param policy what to do with missed occurrences
     * @return the copy
     * @throws NullPointerException if {@code policy} is null
     */
    public Recurrence missedRuns(MissedRunPolicy policy) {
        return new Recurrence(
                kind, periodMillis, cron, zone, Objects.requireNonNull(policy, "policy"), missedAfterMillis);
    }

    /**
     * Returns a copy with another lateness allowance: an occurrence first claimed more than this
     * after its slot counts as missed (see {@link MissedRunPolicy}).
     *
     * @param lateness a whole number of milliseconds, 0 to 2^52 ms
     * @return the copy
     * @throws NullPointerException if {@code lateness} is null
     * @throws IllegalArgumentException if it is negative, too long or not whole milliseconds
     */
    public Recurrence missedAfter(Duration lateness) {
        return new Recurrence(kind, periodMillis, cron, zone, policy, millis("lateness", lateness, 0));
    }

    /**
     * Returns the missed-run policy.
     *
     * @return the policy
     */
    public MissedRunPolicy missedRunPolicy() {
        return policy;
    }

    Kind kind() {
        return kind;
    }

    long periodMillis() {
        return periodMillis;
    }

    long missedAfterMillis() {
        return missedAfterMillis;
    }

    /**
     * Returns the first cron slot after an instant, or null if there is none (only for cron).
     *
     * @param afterMillis epoch milliseconds
     * @return the slot in epoch milliseconds, or null
     */
    Long cronNext(long afterMillis) {
        Instant next = cron.next(Instant.ofEpochMilli(afterMillis), zone);
        return next == null || next.toEpochMilli() > TimerRequest.MAX_MILLIS ? null : next.toEpochMilli();
    }

    /** Returns the text stored with the series in Redis; {@link #decode} reads it back. */
    String encode() {
        return switch (kind) {
            case RATE -> "rate " + periodMillis + " " + policy + " " + missedAfterMillis;
            case DELAY -> "delay " + periodMillis + " " + policy + " " + missedAfterMillis;
            case CRON -> "cron " + policy + " " + missedAfterMillis + " " + zone.getId() + " " + cron.text();
        };
    }

    /**
     * Reads what {@link #encode} wrote.
     *
     * @param text the stored text
     * @return the recurrence
     * @throws IllegalArgumentException if the text is not one (written by another version)
     */
    static Recurrence decode(String text) {
        String[] p = text.split(" ", 5);
        try {
            return switch (p[0]) {
                case "rate", "delay" -> new Recurrence(
                        p[0].equals("rate") ? Kind.RATE : Kind.DELAY,
                        Long.parseLong(p[1]),
                        null,
                        null,
                        MissedRunPolicy.valueOf(p[2]),
                        Long.parseLong(p[3]));
                case "cron" -> new Recurrence(
                        Kind.CRON,
                        0,
                        CronExpression.parse(p[4]),
                        ZoneId.of(p[3]),
                        MissedRunPolicy.valueOf(p[1]),
                        Long.parseLong(p[2]));
                default -> throw new IllegalArgumentException("unknown kind");
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a stored recurrence: '" + text + "'", e);
        }
    }

    private static long millis(String what, Duration d, long min) {
        Objects.requireNonNull(d, what);
        if (d.compareTo(Duration.ofMillis(min)) < 0
                || d.compareTo(Duration.ofMillis(TimerRequest.MAX_MILLIS)) > 0
                || d.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException(
                    what + " must be a whole number of milliseconds in " + min + " ms..2^52 ms: " + d);
        }
        return d.toMillis();
    }

    @Override
    public String toString() {
        return "Recurrence[" + encode() + "]";
    }
}
