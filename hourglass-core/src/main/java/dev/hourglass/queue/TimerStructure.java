package dev.hourglass.queue;

/**
 * Every structure Hourglass implements, for code that sweeps them all (benchmarks, demos, tests).
 * Each constant makes its queue with {@link TimerQueues}' defaults; use {@link TimerQueues}
 * directly to choose sizes.
 *
 * <p>Complexity and order: those of the structure each constant names (see {@link TimerQueues}).
 *
 * <p>Thread-safety: immutable; the queues it makes are not thread-safe.
 */
public enum TimerStructure {
    /** {@link TimerQueues#unsortedList}. */
    UNSORTED_LIST(true),
    /** {@link TimerQueues#sortedList}. */
    SORTED_LIST(true),
    /** {@link TimerQueues#redBlackTree}. */
    RED_BLACK_TREE(true),
    /** {@link TimerQueues#binaryHeap}. */
    BINARY_HEAP(true),
    /** {@link TimerQueues#quaternaryHeap}. */
    QUATERNARY_HEAP(true),
    /** {@link TimerQueues#skipList}. */
    SKIP_LIST(true),
    /** {@link TimerQueues#simpleWheel} with {@link TimerQueues#DEFAULT_SIMPLE_WHEEL_SLOTS} slots. */
    SIMPLE_WHEEL(false),
    /** {@link TimerQueues#hashedWheel} with {@link TimerQueues#DEFAULT_HASHED_WHEEL_SLOTS} slots. */
    HASHED_WHEEL(false),
    /** {@link TimerQueues#sortedHashedWheel} with {@link TimerQueues#DEFAULT_HASHED_WHEEL_SLOTS} slots. */
    SORTED_HASHED_WHEEL(false),
    /** {@link TimerQueues#hierarchicalWheel(long, long)}: 256 near slots and 4 levels of 64. */
    HIERARCHICAL_WHEEL(false);

    private final boolean exact;

    TimerStructure(boolean exact) {
        this.exact = exact;
    }

    /**
     * Tells whether the structure is exact (delivers in deadline order, tick 1) rather than a wheel.
     *
     * @return true for lists, tree, heaps and skip list
     */
    public boolean isExact() {
        return exact;
    }

    /**
     * Makes a queue of this structure.
     *
     * @param startTime the queue's initial time, in nanoseconds
     * @param tickNanos the tick of a wheel, at least 1; checked but unused by exact structures
     * @param <T> the payload type
     * @return a new, empty queue
     * @throws IllegalArgumentException if {@code tickNanos} is not positive
     */
    public <T> TimerQueue<T> newQueue(long startTime, long tickNanos) {
        TimerQueues.requirePositiveTick(tickNanos);
        switch (this) {
            case UNSORTED_LIST:
                return TimerQueues.unsortedList(startTime);
            case SORTED_LIST:
                return TimerQueues.sortedList(startTime);
            case RED_BLACK_TREE:
                return TimerQueues.redBlackTree(startTime);
            case BINARY_HEAP:
                return TimerQueues.binaryHeap(startTime);
            case QUATERNARY_HEAP:
                return TimerQueues.quaternaryHeap(startTime);
            case SKIP_LIST:
                return TimerQueues.skipList(startTime);
            case SIMPLE_WHEEL:
                return TimerQueues.simpleWheel(startTime, tickNanos, TimerQueues.DEFAULT_SIMPLE_WHEEL_SLOTS);
            case HASHED_WHEEL:
                return TimerQueues.hashedWheel(startTime, tickNanos, TimerQueues.DEFAULT_HASHED_WHEEL_SLOTS);
            case SORTED_HASHED_WHEEL:
                return TimerQueues.sortedHashedWheel(startTime, tickNanos, TimerQueues.DEFAULT_HASHED_WHEEL_SLOTS);
            case HIERARCHICAL_WHEEL:
                return TimerQueues.hierarchicalWheel(startTime, tickNanos);
            default:
                throw new AssertionError(this);
        }
    }
}
