package dev.hourglass.time;

/**
 * A source of monotonic nanosecond time, read the way {@link System#nanoTime()} is read: values are
 * meaningful only as differences, may be negative, and are compared by subtraction ({@code a - b <
 * 0} means a is before b), so a clock may run across {@code Long.MAX_VALUE} into negative values.
 *
 * <p>Drivers and patterns take a clock instead of reading the system time, so tests and
 * simulations drive them with a {@link ManualNanoClock} and never sleep.
 *
 * <p>Complexity: a reading is O(1). Ordering: readings never decrease, in subtraction order.
 *
 * <p>Thread-safety: implementations may be read from any thread.
 */
@FunctionalInterface
public interface NanoClock {

    /**
     * Returns the current time in nanoseconds.
     *
     * @return the current time; only differences between two readings of the same clock mean
     *     anything
     */
    long nanoTime();

    /**
     * Registers a callback to run whenever this clock jumps forward in a step rather than flowing,
     * as a {@link ManualNanoClock} does when advanced. A driver sleeping towards a deadline
     * registers one to wake up and look at the time again, so tests under a manual clock never
     * sleep. Clocks that flow, like the system clock, never call it; the default does nothing.
     *
     * @param listener run after each jump, on the thread that moved the clock
     */
    default void addJumpListener(Runnable listener) {}

    /**
     * Removes a callback added by {@link #addJumpListener}; the default does nothing.
     *
     * @param listener the callback to remove
     */
    default void removeJumpListener(Runnable listener) {}

    /**
     * Tells whether this clock moves by itself, as the system clock does. A driver waiting for a
     * deadline of a clock that does not flow sleeps until the clock {@linkplain #addJumpListener
     * jumps}, instead of for a stretch of real time that means nothing to this clock.
     *
     * @return true, the default; false for a {@link ManualNanoClock}
     */
    default boolean flows() {
        return true;
    }

    /**
     * Returns the clock backed by {@link System#nanoTime()}.
     *
     * @return the shared system clock
     */
    static NanoClock system() {
        return SystemNanoClock.INSTANCE;
    }
}
