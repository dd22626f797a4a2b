package dev.hourglass.queue;

/**
 * Makes every {@link TimerQueue} structure. Each queue starts at {@code startTime}, its first
 * {@link TimerQueue#time()}; pass the clock's current reading. Wheels place tick boundaries at
 * {@code startTime + k * tickNanos}.
 *
 * <p>Which to choose: a hierarchical wheel for many timers that are mostly cancelled or moved
 * (timeouts, heartbeats) when a tick of lateness is fine; a 4-ary heap when timers must fire in
 * exact deadline order; lists only as baselines.
 *
 * <p>Complexity and order: each factory method states its structure's.
 *
 * <p>Thread-safety: the factory methods may be called from any thread; the queues they make are
 * not thread-safe.
 */
public final class TimerQueues {

    /**
     * The default tick of a thread-safe timer's wheel (its builder's): 100,000 ns (0.1 ms). Rounding up to the
     * tick makes a timer at most 0.1 ms late before the driver's own wake-up delay, while a
     * tickless driver on {@link #DEFAULT_STRUCTURE} pays nothing for the empty ticks in between:
     * its bitmaps jump over them. With the default layout the wheels cover 2^32 ticks, about 5
     * days at this tick; later timers wait in its overflow list, looked at once per 5 days.
     */
    public static final long DEFAULT_TICK_NANOS = 100_000;

    /**
     * The default structure of a thread-safe timer (its builder's): {@link TimerStructure#HIERARCHICAL_WHEEL}, O(1)
     * schedule, cancel and reschedule, with next deadline and a pause's catch-up found from bitmaps
     * at any tick.
     */
    public static final TimerStructure DEFAULT_STRUCTURE = TimerStructure.HIERARCHICAL_WHEEL;

    /** Slots of {@link TimerStructure#SIMPLE_WHEEL}: 65,536, about 65 s at a 1 ms tick. */
    public static final int DEFAULT_SIMPLE_WHEEL_SLOTS = 1 << 16;

    /** Slots of {@link TimerStructure#HASHED_WHEEL} and {@link TimerStructure#SORTED_HASHED_WHEEL}. */
    public static final int DEFAULT_HASHED_WHEEL_SLOTS = 512;

    /** Bits of a hierarchical wheel's near wheel: 256 slots of one tick each. */
    public static final int DEFAULT_NEAR_BITS = 8;

    /** Bits of each upper wheel of a hierarchical wheel: 64 slots. */
    public static final int DEFAULT_LEVEL_BITS = 6;

    /** Upper wheels of a hierarchical wheel: with the defaults above, a range of 2^32 ticks. */
    public static final int DEFAULT_LEVELS = 4;

    private TimerQueues() {}

    /**
     * An unsorted doubly linked list, the articles' first baseline.
     *
     * <p>Complexity: schedule, cancel and reschedule O(1); next deadline O(n); each delivered timer
     * an O(n) scan.
     *
     * <p>Order: exact, by (deadline, insertion); a reschedule counts as a new insertion.
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time
     * @param <T> the payload type
     * @return a new, empty queue
     */
    public static <T> TimerQueue<T> unsortedList(long startTime) {
        return new UnsortedListQueue<>(startTime);
    }

    /**
     * A doubly linked list kept sorted by deadline, the articles' second baseline.
     *
     * <p>Complexity: schedule and reschedule O(n), searching from the latest deadline; cancel O(1);
     * next deadline O(1); each delivered timer O(1).
     *
     * <p>Order: exact, by (deadline, insertion); a reschedule counts as a new insertion.
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time
     * @param <T> the payload type
     * @return a new, empty queue
     */
    public static <T> TimerQueue<T> sortedList(long startTime) {
        return new SortedListQueue<>(startTime);
    }

    /**
     * A binary min-heap of entries that know their slot.
     *
     * <p>Complexity: schedule, cancel and reschedule O(log n), reschedule sifting in place; next
     * deadline O(1); each delivered timer O(log n). Memory grows by doubling and shrinks when a
     * quarter full.
     *
     * <p>Order: exact, by (deadline, insertion); a reschedule counts as a new insertion.
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time
     * @param <T> the payload type
     * @return a new, empty queue
     */
    public static <T> TimerQueue<T> binaryHeap(long startTime) {
        return new BinaryHeapQueue<>(startTime);
    }

    /**
     * A 4-ary min-heap with its keys inline in a {@code long[]} (libev's layout): half the depth of
     * a binary heap, and sifts that compare keys without touching the entries.
     *
     * <p>Complexity: schedule, cancel and reschedule O(log4 n), reschedule sifting in place; next
     * deadline O(1); each delivered timer O(log4 n). Memory grows by doubling and shrinks when a
     * quarter full.
     *
     * <p>Order: exact, by (deadline, insertion); a reschedule counts as a new insertion.
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time
     * @param <T> the payload type
     * @return a new, empty queue
     */
    public static <T> TimerQueue<T> quaternaryHeap(long startTime) {
        return new QuaternaryHeapQueue<>(startTime);
    }

    /**
     * A red-black tree keyed by (deadline, insertion) with the earliest node cached.
     *
     * <p>Complexity: schedule, cancel and reschedule O(log n); next deadline O(1); each delivered
     * timer O(log n).
     *
     * <p>Order: exact, by (deadline, insertion); a reschedule counts as a new insertion.
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time
     * @param <T> the payload type
     * @return a new, empty queue
     */
    public static <T> TimerQueue<T> redBlackTree(long startTime) {
        return new RedBlackTreeQueue<>(startTime);
    }

    /**
     * A skip list doubly linked at every level; its levels come from a fixed seed, so runs repeat
     * exactly.
     *
     * <p>Complexity: schedule and reschedule O(log n) expected; cancel and each delivered timer O(1)
     * expected; next deadline O(1).
     *
     * <p>Order: exact, by (deadline, insertion); a reschedule counts as a new insertion.
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time
     * @param <T> the payload type
     * @return a new, empty queue
     */
    public static <T> TimerQueue<T> skipList(long startTime) {
        return new SkipListQueue<>(startTime);
    }

    /**
     * A simple timing wheel with a maximum interval, the articles' scheme 4: one slot per tick. A
     * deadline may lie at most {@code slots - 1} ticks after the wheel's current tick, which lags
     * behind {@link TimerQueue#time()} while a poll delivers and after a poll that stopped at its
     * limit with due timers left; schedule and reschedule refuse one beyond that range with an
     * {@link IllegalArgumentException} that names the range, and {@link TimerQueue#horizon()} tells
     * the furthest deadline accepted now. {@link #DEFAULT_SIMPLE_WHEEL_SLOTS} is a reasonable size.
     *
     * <p>Complexity: schedule, cancel and reschedule O(1); next deadline O(slots / 64); each
     * delivered timer O(1), plus O(slots / 64) to find the next occupied slot. Memory: one bucket
     * per slot, allocated up front.
     *
     * <p>Order: tick order, at most one tick late; within a tick, insertion order (a reschedule
     * counts as a new insertion).
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time and its first tick boundary
     * @param tickNanos the width of a slot in nanoseconds, positive
     * @param slots the number of slots, a positive power of two; the range is {@code slots - 1}
     *     ticks
     * @param <T> the payload type
     * @return a new, empty queue
     * @throws IllegalArgumentException if {@code tickNanos} is not positive or {@code slots} is not
     *     a positive power of two
     */
    public static <T> TimerQueue<T> simpleWheel(long startTime, long tickNanos, int slots) {
        return new SimpleTimingWheel<>(startTime, tickNanos, slots);
    }

    /**
     * A hashed timing wheel with rounds and unsorted buckets, the articles' scheme 6: any deadline,
     * hashed to a slot, each slot holding timers of many rotations, grouped by tick and the groups
     * kept in tick order, so the wheel never looks at a timer before its round. {@link
     * #DEFAULT_HASHED_WHEEL_SLOTS} is a reasonable size.
     *
     * <p>Complexity:
     *
     * <ul>
     *   <li>schedule, reschedule: O(1) plus one step per tick group passed in the slot, walked from
     *       its nearer end (O(1) when the timer is the slot's latest or earliest, as with a fixed
     *       timeout);
     *   <li>cancel, each delivered timer: O(1);
     *   <li>next deadline, each move to the next tick holding timers: O(1) per occupied slot passed,
     *       O(slots) at most; no timer of a later round is looked at;
     *   <li>a long pause: O(slots) per tick that delivers something;
     *   <li>memory: a sentinel per slot, plus a bucket node and 20 bytes of array cells per tick
     *       holding timers, kept for reuse.
     * </ul>
     *
     * <p>Order: tick order, at most one tick late; no promise within a tick.
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time and its first tick boundary
     * @param tickNanos the width of a slot in nanoseconds, positive
     * @param slots the number of slots, a positive power of two
     * @param <T> the payload type
     * @return a new, empty queue
     * @throws IllegalArgumentException if {@code tickNanos} is not positive or {@code slots} is not
     *     a positive power of two
     */
    public static <T> TimerQueue<T> hashedWheel(long startTime, long tickNanos, int slots) {
        return new HashedTimingWheel<>(startTime, tickNanos, slots);
    }

    /**
     * A hashed timing wheel with rounds and buckets sorted by deadline, the articles' scheme 5: any
     * deadline, hashed to a slot whose timers are kept in deadline order (grouped by tick, the
     * groups in tick order, each sorted by deadline), so the wheel never looks at a timer before
     * its round. {@link #DEFAULT_HASHED_WHEEL_SLOTS} is a reasonable size.
     *
     * <p>Complexity:
     *
     * <ul>
     *   <li>schedule, reschedule: O(1) plus one step per tick group passed in the slot, walked from
     *       its nearer end (O(1) when the timer is the slot's latest or earliest, as with a fixed
     *       timeout), plus one per timer of the same tick with a later
     *       deadline;
     *   <li>cancel, each delivered timer: O(1);
     *   <li>next deadline, each move to the next tick holding timers: O(1) per occupied slot passed,
     *       O(slots) at most; no timer of a later round is looked at;
     *   <li>a long pause: O(slots) per tick that delivers something;
     *   <li>memory: a sentinel per slot, plus a bucket node and 20 bytes of array cells per tick
     *       holding timers, kept for reuse.
     * </ul>
     *
     * <p>Order: tick order, at most one tick late; within a tick, (deadline, insertion) order (a
     * reschedule counts as a new insertion).
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time and its first tick boundary
     * @param tickNanos the width of a slot in nanoseconds, positive
     * @param slots the number of slots, a positive power of two
     * @param <T> the payload type
     * @return a new, empty queue
     * @throws IllegalArgumentException if {@code tickNanos} is not positive or {@code slots} is not
     *     a positive power of two
     */
    public static <T> TimerQueue<T> sortedHashedWheel(long startTime, long tickNanos, int slots) {
        return new SortedHashedTimingWheel<>(startTime, tickNanos, slots);
    }

    /**
     * A hierarchical timing wheel with the default layout: a near wheel of 256 one-tick slots and 4
     * upper wheels of 64 slots, covering 2^32 ticks (about 49.7 days at a 1 ms tick); timers beyond
     * wait in an overflow list, so every deadline is accepted.
     *
     * <p>Complexity: schedule, cancel and reschedule O(1); a timer moves down at most 4 times before
     * it fires, plus one look per 2^32 ticks it waits beyond the range; next deadline a few bitmap
     * words plus one slot's timers.
     *
     * <p>Order: by tick, at most one tick late; no promise within a tick.
     *
     * <p>Thread-safety: none; confine the queue to one thread.
     *
     * @param startTime the queue's initial time and its first tick boundary
     * @param tickNanos the tick in nanoseconds, at least 1
     * @param <T> the payload type
     * @return a new, empty queue
     * @throws IllegalArgumentException if {@code tickNanos} is not positive
     * @see #hierarchicalWheel(long, long, int, int, int)
     */
    public static <T> TimerQueue<T> hierarchicalWheel(long startTime, long tickNanos) {
        return hierarchicalWheel(startTime, tickNanos, DEFAULT_NEAR_BITS, DEFAULT_LEVEL_BITS, DEFAULT_LEVELS);
    }

    /**
     * A hierarchical timing wheel with a chosen layout: a near wheel of {@code 2^nearBits} one-tick
     * slots under {@code levels} upper wheels of {@code 2^levelBits} slots, each slot of an upper
     * wheel spanning a whole rotation of the wheel below. The wheels cover {@code 2^(nearBits +
     * levels * levelBits)} ticks; timers beyond wait in an overflow list that is looked at again once
     * per such range, so every deadline is accepted. For example, with a 1 ms tick and the default
     * 8, 6, 4 layout, a timer 300 ms out waits in level 1, slot 1, moves at tick 256 to near slot 44
     * and fires at tick 300.
     *
     * <p>A larger near wheel keeps more timers from ever cascading; more levels or bits widen the
     * range at the cost of memory (one sentinel per slot) and of bitmap scans for the next deadline.
     * A wheel has at most 2^16 slots: a slot's sentinel packs its level and slot into one int, and
     * wider wheels would only cost more memory and longer scans.
     *
     * <p>Complexity: schedule, cancel and reschedule O(1); each timer cascades at most {@code levels}
     * times. Order: by tick, at most one tick late; no promise within a tick. Thread-safety: none;
     * confine the queue to one thread.
     *
     * @param startTime the queue's initial time and its first tick boundary
     * @param tickNanos the tick in nanoseconds, at least 1
     * @param nearBits the near wheel has {@code 2^nearBits} slots; from 1 to 16
     * @param levelBits each upper wheel has {@code 2^levelBits} slots; from 1 to 16
     * @param levels the number of upper wheels, at least 0 (0: the near wheel and the overflow list
     *     only), with {@code nearBits + levels * levelBits} at most 62
     * @param <T> the payload type
     * @return a new, empty queue
     * @throws IllegalArgumentException if an argument is out of its bounds
     */
    public static <T> TimerQueue<T> hierarchicalWheel(
            long startTime, long tickNanos, int nearBits, int levelBits, int levels) {
        return new HierarchicalTimingWheel<>(startTime, tickNanos, nearBits, levelBits, levels);
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
