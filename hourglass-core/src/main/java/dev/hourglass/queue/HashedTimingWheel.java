package dev.hourglass.queue;

/**
 * A hashed timing wheel with rounds and unsorted buckets: the articles' scheme 6 (Varghese and
 * Lauck). Any deadline is accepted and hashed to slot {@code tick & (slots - 1)} of its tick, so
 * one slot holds timers of many rotations. The rounds are kept apart: a slot's timers are grouped
 * by tick, groups in tick order, so reaching a slot takes its first group if that group is due this
 * round and never looks at a timer of a later round; within a group timers are appended.
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
 * <p>Order: tick order; no promise within a tick.
 *
 * <p>Thread-safety: none; confine to one thread.
 *
 * @param <T> the payload type
 */
final class HashedTimingWheel<T> extends AbstractHashedWheel<T> {

    HashedTimingWheel(long startTime, long tickNanos, int slots) {
        super(startTime, tickNanos, slots);
    }

    @Override
    void join(Bucket<T> bucket, LinkedEntry<T> entry, boolean due) {
        bucket.append(entry);
    }

    @Override
    void took(Bucket<T> due) {
        // insertion order is this wheel's order within a tick
    }
}
