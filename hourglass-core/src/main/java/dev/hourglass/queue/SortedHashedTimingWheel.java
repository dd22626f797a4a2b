package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * A hashed timing wheel with rounds and sorted buckets: the articles' scheme 5 (Varghese and
 * Lauck). Any deadline is accepted: it is hashed to slot {@code (current + ticks) & (slots - 1)},
 * where the bucket is kept sorted by deadline (an equal deadline goes after), which within one slot
 * is also the order of rotations. So the due timers of a slot are always a prefix of its bucket:
 * reaching a slot pops from the head while the head is due and stops at the first timer of a later
 * rotation, without looking at the rest. A timer already due when scheduled (by the consumer too)
 * sorts into the current slot by its deadline and is delivered in that order.
 *
 * <p>Complexity: schedule and reschedule O(n / slots) on average (a walk from the bucket's tail,
 * where later deadlines go), O(n) if one slot holds everything; cancel O(1); each delivered timer
 * O(1). Next deadline looks only at bucket heads, in slot order from the current one, and stops at
 * the first head of this rotation: O(slots / 64 + occupied slots) in the worst case. Moving the
 * wheel skips empty slots 64 at a time and checks one head per occupied slot; after a whole
 * rotation without a delivery while now is at least a rotation away, it jumps to the earliest head,
 * so a long pause costs O(slots / 64 + occupied slots) per tick that delivers something, never a
 * step per empty tick. Memory: one bucket per slot, allocated up front.
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
    void insert(LinkedEntry<T> entry) {
        int slot = slotOf(ticksUntil(entry.deadline));
        slots[slot].insertSorted(entry, time);
        occupied.set(slot);
    }

    @Override
    int drain(Consumer<? super TimerHandle<T>> consumer, int limit, int count) {
        while (count < limit && hasDue()) {
            LinkedEntry<T> first = slots[slotOf(0)].first();
            remove(first);
            deliver(first, consumer);
            count++;
        }
        return count;
    }

    @Override
    boolean hasDue() {
        Bucket<T> bucket = slots[slotOf(0)];
        LinkedEntry<T> first = bucket.first();
        return first != bucket && dueBy(first.deadline, 0);
    }

    @Override
    void reached(Bucket<T> bucket) {
        // Nothing to sort out: the due timers are the bucket's head, which drain pops.
    }

    @Override
    long minTicksIn(Bucket<T> bucket, int floor) {
        return ticksUntil(bucket.first().deadline);
    }

    @Override
    long earliest() {
        return boundaryAfter(minTicks());
    }
}
