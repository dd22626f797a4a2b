package dev.hourglass.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One timer to schedule with {@link RedisTimers#scheduleAll}: an id, a due time (an instant, or a
 * delay measured on the Redis server's clock) and a payload. Arguments are checked when the request
 * is made.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: immutable (the payload array is the
 * caller's: do not modify it before the request was scheduled).
 */
public final class TimerRequest {
    /** Due times are sorted-set scores (doubles): past 2^52 ms (142,000 years) they lose precision. */
    static final long MAX_MILLIS = 1L << 52;

    private final String id;
    private final boolean relative;
    private final long millis;
    private final byte[] payload;

    private TimerRequest(String id, boolean relative, long millis, byte[] payload) {
        this.id = checkId(id);
        this.relative = relative;
        this.millis = millis;
        this.payload = Objects.requireNonNull(payload, "payload");
    }

    /**
     * A timer due at an instant. An instant in the past makes it due at once. The instant is
     * compared with the Redis server's clock, so a caller whose clock is skewed schedules it early
     * or late by the skew; {@link #after} does not have that problem.
     *
     * @param id the timer's id, not null or empty, valid UTF-16 (no unpaired surrogate)
     * @param dueTime when it is due, rounded up to the millisecond, within 2^52 ms of the epoch
     * @param payload what the handler receives, not null
     * @return the request
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the id is empty or has an unpaired surrogate, or the instant
     *     is out of range
     */
    public static TimerRequest at(String id, Instant dueTime, byte[] payload) {
        Objects.requireNonNull(dueTime, "dueTime");
        long ms;
        try {
            ms = Math.addExact(dueTime.toEpochMilli(), dueTime.getNano() % 1_000_000 == 0 ? 0 : 1);
        } catch (ArithmeticException e) {
            ms = Long.MAX_VALUE;
        }
        if (Math.abs(ms) > MAX_MILLIS) {
            throw new IllegalArgumentException("dueTime must be within 2^52 ms of the epoch: " + dueTime);
        }
        return new TimerRequest(id, false, ms, payload);
    }

    /**
     * A timer due after a delay, measured from when Redis runs the schedule, on Redis's clock.
     *
     * @param id the timer's id, not null or empty, valid UTF-16 (no unpaired surrogate)
     * @param delay how long until it is due, rounded up to the millisecond, not negative, at most
     *     2^51 ms
     * @param payload what the handler receives, not null
     * @return the request
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the id is empty or has an unpaired surrogate, or the delay
     *     is negative or too long
     */
    public static TimerRequest after(String id, Duration delay, byte[] payload) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        if (delay.compareTo(Duration.ofMillis(MAX_MILLIS / 2)) > 0) {
            throw new IllegalArgumentException("delay must be at most 2^51 ms: " + delay);
        }
        long ms = delay.toMillis() + (delay.getNano() % 1_000_000 == 0 ? 0 : 1);
        return new TimerRequest(id, true, ms, payload);
    }

    /**
     * Returns the id.
     *
     * @return the timer's id
     */
    public String id() {
        return id;
    }

    boolean relative() {
        return relative;
    }

    long millis() {
        return millis;
    }

    byte[] payload() {
        return payload;
    }

    static String checkId(String id) {
        Objects.requireNonNull(id, "id");
        if (id.isEmpty()) {
            throw new IllegalArgumentException("id must not be empty");
        }
        return checkUtf16("id", id);
    }

    /**
     * Refuses a string that is not valid UTF-16 (an unpaired surrogate): UTF-8 cannot encode it, and
     * Java would store it as '?', merging it with another string.
     *
     * @param what the argument's name, for the message
     * @param s the string
     * @return {@code s}
     * @throws IllegalArgumentException if {@code s} has an unpaired surrogate
     */
    static String checkUtf16(String what, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(what + " is not valid UTF-16: unpaired surrogate \\u"
                        + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + " at index " + i + " of "
                        + s.length() + " chars (it cannot be stored exactly)");
            }
        }
        return s;
    }

    @Override
    public String toString() {
        return "TimerRequest[id=" + id + (relative ? ", delay=" : ", due=") + millis + " ms]";
    }
}
