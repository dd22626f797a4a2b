package dev.hourglass.redis;

/**
 * What a recurring timer does with occurrences it missed, when no node could run them on time (all
 * nodes down, Redis down, every handler slot busy). An occurrence counts as missed when its first
 * claim comes later than its slot plus the series' {@linkplain Recurrence#missedAfter lateness
 * allowance} (1 minute by default). Retries of an occurrence are never "missed".
 *
 * <p>Complexity: not applicable. Ordering: not applicable. Thread-safety: immutable.
 */
public enum MissedRunPolicy {
    /**
     * The default: the first missed occurrence runs once, late, standing for all the slots missed up
     * to its claim; the series then goes on with the first slot after that claim. Like Quartz's
     * "fire once now".
     */
    RUN_ONCE,
    /**
     * Every missed slot runs, in order and one after the other, as fast as the nodes take them, until
     * the series has caught up. After a long outage of a short period this is many runs.
     */
    RUN_ALL,
    /**
     * Missed occurrences do not run: the series goes on with the first slot after the claim that
     * found them missed.
     */
    SKIP
}
