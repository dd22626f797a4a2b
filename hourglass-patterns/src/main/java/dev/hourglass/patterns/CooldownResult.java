package dev.hourglass.patterns;

import java.time.Duration;

/**
 * What {@link Cooldowns#tryUse} did: whether the ability was used (a charge was spent), how many
 * charges are left, and how long until the next charge comes back.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: immutable.
 */
public final class CooldownResult {

    private final boolean used;
    private final int charges;
    private final long remainingNanos;

    CooldownResult(boolean used, int charges, long remainingNanos) {
        this.used = used;
        this.charges = charges;
        this.remainingNanos = remainingNanos;
    }

    /**
     * Tells whether the ability was ready and a charge was spent.
     *
     * @return true if used, false if every charge was on cooldown
     */
    public boolean used() {
        return used;
    }

    /**
     * Returns the charges left after this call.
     *
     * @return at least 0; always 0 when not {@linkplain #used() used}
     */
    public int charges() {
        return charges;
    }

    /**
     * Returns the time until the next charge comes back, measured when the call was made.
     *
     * @return the time left, in nanoseconds; positive when a charge is recharging, 0 when every
     *     charge is available
     */
    public long remainingNanos() {
        return remainingNanos;
    }

    /**
     * Returns the time until the next charge comes back, measured when the call was made.
     *
     * @return {@link #remainingNanos()} as a duration
     */
    public Duration remaining() {
        return Duration.ofNanos(remainingNanos);
    }

    @Override
    public String toString() {
        return (used ? "used, " : "not ready, ") + charges + " charges left, next in " + remaining();
    }
}
