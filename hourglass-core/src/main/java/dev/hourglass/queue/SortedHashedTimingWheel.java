package dev.hourglass.queue;

/**
 * A hashed timing wheel with rounds and sorted buckets: the articles' scheme 5 (Varghese and
 * Lauck). Any deadline is accepted and hashed to slot {@code tick & (slots - 1)} of its tick, where
 * the slot's timers are grouped by tick, groups in tick order (which within a slot is the order of
 * rounds), and each group is sorted by deadline when its tick comes due, a stable sort, so an equal
 * deadline keeps its insertion order. So reaching a slot takes its first group if it is due this
 * round, without looking at a timer of a later round. A timer already due when scheduled (by the
 * consumer too) sorts into the current tick's timers by its deadline and is delivered in that order.
 *
 * <p>Complexity:
 *
 * <ul>
 *   <li>schedule, reschedule: O(1) plus one step per tick group passed in the slot, walked from
 *       its nearer end (O(1) when the timer is the slot's latest or earliest, as with a fixed
 *       timeout); a timer already due: one step per timer of the current tick with a later
 *       deadline;
 *   <li>cancel: O(1); each tick that comes due: O(k) for its k timers if they are in order, else
 *       a stable sort without allocation ({@link DeadlineSort}: a merge sort, O(k log k), for a
 *       few; for many a radix sort of at most six O(k) passes), then O(1) per delivered timer;
 *   <li>next deadline, each move to the next tick holding timers: O(1) per occupied slot passed,
 *       O(slots) at most; no timer of a later round is looked at;
 *   <li>a long pause: O(slots) per tick that delivers something;
 *   <li>memory: a sentinel per slot, plus a bucket node and 20 bytes of array cells per tick
 *       holding timers, kept for reuse; the radix sort's two arrays of 2048 references, made at the
 *       first long sort.
 * </ul>
 *
 * <p>Order: tick order; within a tick, (deadline, insertion) order (a reschedule counts as a new
 * insertion).
 *
 * <p>Thread-safety: none; confine to one thread.
 *
 * @param <T> the payload type
 */
final class SortedHashedTimingWheel<T> extends AbstractHashedWheel<T> {

    private final DeadlineSort<T> sort = new DeadlineSort<>();

    SortedHashedTimingWheel(long startTime, long tickNanos, int slots) {
        super(startTime, tickNanos, slots);
    }

    @Override
    void join(Bucket<T> bucket, LinkedEntry<T> entry, boolean due) {
        if (due) {
            bucket.insertSorted(entry, time);
        } else {
            // Sorted once, when the tick comes due: timers of one tick scheduled in no order of
            // deadline (a few ns apart, as clock readings are) would each walk half the tick.
            bucket.append(entry);
        }
    }

    @Override
    void took(Bucket<T> due) {
        sort.sort(due, time);
    }
}
