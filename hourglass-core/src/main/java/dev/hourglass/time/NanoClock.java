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
     * Returns the clock backed by {@link System#nanoTime()}.
     *
     * @return the shared system clock
     */
    static NanoClock system() {
        return SystemNanoClock.INSTANCE;
    }
}
