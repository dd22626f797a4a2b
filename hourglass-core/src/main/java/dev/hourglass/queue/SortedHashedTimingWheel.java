package dev.hourglass.queue;

/**
 * A hashed timing wheel with rounds and sorted buckets: the articles' scheme 5 (Varghese and
 * Lauck). Any deadline is accepted and hashed to slot {@code tick & (slots - 1)} of its tick, where
 * the slot's timers are kept in deadline order: grouped by tick, groups in tick order (which within
 * a slot is the order of rounds), and each group sorted by deadline, an equal deadline going after.
 * So reaching a slot takes its first group if it is due this round, already in order, without
 * looking at a timer of a later round. A timer already due when scheduled (by the consumer too)
 * sorts into the current tick's timers by its deadline and is delivered in that order.
 *
 * <p>Complexity: schedule and reschedule O(1) plus one step per group of a later tick in the slot
 * (O(1) when a slot's timers arrive in tick order) plus one per timer of the same tick with a later
 * deadline; cancel O(1); each delivered timer O(1). Finding the next tick that holds timers costs
 * O(1) per occupied slot passed (empty slots skipped 64 at a time), so next deadline is O(slots) in
 * the worst case and a long pause costs at most O(slots) per tick that delivers something. Memory:
 * a slot sentinel per slot plus a group (about 56 bytes) per tick that holds timers, kept for
 * reuse.
 *
 * <p>Order: tick order; within a tick, (deadline, insertion) order (a reschedule counts as a new
 * insertion).
 *
 * <p>Thread-safety: none; confine to one thread.
 *
 * @param <T> the payload type
 */
final class SortedHashedTimingWheel<T> extends AbstractHashedWheel<T> {

    SortedHashedTimingWheel(long startTime, long tickNanos, int slots) {
        super(startTime, tickNanos, slots);
    }

    @Override
    void join(Bucket<T> bucket, LinkedEntry<T> entry) {
        bucket.insertSorted(entry, time);
    }
}
