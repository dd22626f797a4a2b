package dev.hourglass.patterns;

/**
 * Hears each tick of a {@link Countdown}.
 *
 * <p>Complexity: whatever the implementation costs; it runs on the timer's thread (or its
 * executor), so it should be short. Ordering: ticks 1, 2, 3, ... each exactly once, in order, all
 * before the completion.
 *
 * <p>Thread-safety: called on the timer's thread or its executor, one call at a time, never while
 * the countdown's lock is held, so it may call the countdown (pause it, cancel it, read it).
 */
@FunctionalInterface
public interface CountdownTickListener {

    /**
     * Reports a tick. When the timer is late by several intervals, each missed tick still gets its
     * own call, in order, with its own {@code dueNanos}, one right after the other.
     *
     * @param tick the tick's number, from 1
     * @param dueNanos the clock reading the tick was due at: start + tick × interval + the time
     *     spent paused before it; the clock reads this or later during the call
     */
    void onTick(long tick, long dueNanos);
}
