package dev.hourglass.queue;

/**
 * A hashed timing wheel with rounds and unsorted buckets: the articles' scheme 6 (Varghese and
 * Lauck). Any deadline is accepted and hashed to slot {@code tick & (slots - 1)} of its tick, so
 * one slot holds timers of many rotations. The rounds are kept apart: a slot's timers are grouped
 * by tick, groups in tick order, so reaching a slot takes its first group if that group is due this
 * round and never looks at a timer of a later round; within a group timers are appended.
 *
 * <p>Complexity: schedule and reschedule O(1) plus one step per group of a later tick in the slot
 * (O(1) when a slot's timers arrive in tick order, as a fixed timeout's do); cancel O(1); each
 * delivered timer O(1). Finding the next tick that holds timers costs O(1) per occupied slot passed
 * (empty slots skipped 64 at a time), so next deadline is O(slots) in the worst case and a long
 * pause costs at most O(slots) per tick that delivers something. Memory: a slot sentinel per slot
 * plus a group (about 56 bytes) per tick that holds timers, kept for reuse.
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
    void join(Bucket<T> bucket, LinkedEntry<T> entry) {
        bucket.append(entry);
    }
}
