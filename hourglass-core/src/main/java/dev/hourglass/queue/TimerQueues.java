package dev.hourglass.queue;

/**
 * Makes every {@link TimerQueue} structure. Each queue starts at {@code startTime}, its first
 * {@link TimerQueue#time()}; pass the clock's current reading. Wheels place tick boundaries at
 * {@code startTime + k * tickNanos}.
 *
 * <p>Which to choose: a hierarchical wheel for many timers that are mostly cancelled or moved
 * (timeouts, heartbeats) when a tick of lateness is fine; a 4-ary heap when timers must fire in
 * exact deadline order; lists only as baselines. {@code docs/} holds the measurements.
 */
public final class TimerQueues {

    /** Slots of {@link TimerStructure#SIMPLE_WHEEL}: 65,536, about 65 s at a 1 ms tick. */
    public static final int DEFAULT_SIMPLE_WHEEL_SLOTS = 1 << 16;

    /** Slots of {@link TimerStructure#HASHED_WHEEL} and {@link TimerStructure#SORTED_HASHED_WHEEL}. */
    public static final int DEFAULT_HASHED_WHEEL_SLOTS = 512;

    private TimerQueues() {}

    /**
     * An unsorted doubly linked list: O(1) changes, O(n) expiry. A baseline.
     *
     * @param startTime the queue's initial time
     * @param <T> the payload type
     * @return a new, empty queue
     */
    public static <T> TimerQueue<T> unsortedList(long startTime) {
        return new UnsortedListQueue<>(startTime);
    }

    /**
     * A sorted doubly linked list: O(n) schedule, O(1) cancel and expiry. A baseline.
     *
     * @param startTime the queue's initial time
     * @param <T> the payload type
     * @return a new, empty queue
     */
    public static <T> TimerQueue<T> sortedList(long startTime) {
        return new SortedListQueue<>(startTime);
    }

    static void requirePositiveTick(long tickNanos) {
        if (tickNanos <= 0) {
            throw new IllegalArgumentException("tickNanos must be positive: " + tickNanos);
        }
    }

    static void requirePowerOfTwo(String name, int value) {
        if (value <= 0 || Integer.bitCount(value) != 1) {
            throw new IllegalArgumentException(name + " must be a positive power of two: " + value);
        }
    }
}
