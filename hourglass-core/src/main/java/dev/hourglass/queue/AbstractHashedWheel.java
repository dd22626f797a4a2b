package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * What the two hashed wheels with rounds (Varghese and Lauck's schemes 5 and 6) share: any deadline
 * is accepted and hashed to slot {@code (current + ticks) & (slots - 1)}, so one slot holds timers
 * of many rotations. The rounds are implicit: a timer in the slot being visited is due exactly when
 * its deadline has been reached at that tick, so nothing is decremented per rotation.
 *
 * <p>Every pending timer's tick is at or after the current tick: the wheel moves only to the next
 * occupied slot (found with the bitmap) or to the least tick of all timers, and drains each tick it
 * stops at before moving on. A timer already due when scheduled joins the current tick.
 *
 * <p>Complexity: moving the wheel visits each occupied slot it passes. When it has walked a whole
 * rotation without delivering anything while now is still at least a rotation away, every timer has
 * been looked at once and was not due, so it stops walking and jumps straight to the least tick of
 * all timers, found by {@link #minTicks}. A long pause therefore costs O(n + slots / 64) per tick
 * that delivers something (a rotation's walk plus the search), never one step per empty tick.
 *
 * <p>Order: tick order; each subclass states its order within a tick.
 *
 * <p>Thread-safety: none; confine to one thread.
 *
 * @param <T> the payload type
 */
abstract class AbstractHashedWheel<T> extends AbstractSlotWheel<T> {

    AbstractHashedWheel(long startTime, long tickNanos, int slots) {
        super(startTime, tickNanos, slots);
    }

    /**
     * Delivers the current tick's due timers, counting on from {@code count}, until none is left or
     * the count reaches {@code limit}; returns the new count. It does nothing if {@code count} is
     * already {@code limit}.
     */
    abstract int drain(Consumer<? super TimerHandle<T>> consumer, int limit, int count);

    /** Tells whether the current tick still holds a due timer. */
    abstract boolean hasDue();

    /** Called once each time the wheel moves, with the new current tick's bucket. */
    abstract void reached(Bucket<T> bucket);

    /**
     * Returns the least ticks-until (unsigned) among the timers in {@code bucket}, which lies
     * {@code floor} slots after the current one; it may stop looking once it finds {@code floor},
     * the least possible value.
     */
    abstract long minTicksIn(Bucket<T> bucket, int floor);

    @Override
    final int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        int count = 0;
        // Ticks moved since the wheel last delivered something in this poll.
        long idle = 0;
        while (true) {
            int before = count;
            count = drain(consumer, limit, count);
            if (hasDue()) {
                // Stopped by the limit; the rest of this tick comes first next time.
                return count;
            }
            long remaining = ticksTo(now);
            if (remaining == 0) {
                return count;
            }
            if (count != before) {
                idle = 0;
            }
            long step;
            // A rotation walked in vain has looked at every timer once; walking on would only
            // repeat those looks, rotation after rotation, so go straight to the earliest.
            if (idle >= slots.length && Long.compareUnsigned(remaining, slots.length) >= 0) {
                step = minTicks();
            } else {
                int gap = occupied.nextSetCyclic(slotOf(1));
                step = gap < 0 ? remaining : gap + 1;
            }
            if (Long.compareUnsigned(step, remaining) > 0) {
                step = remaining;
            }
            advance(step);
            idle += step;
            reached(slots[slotOf(0)]);
        }
    }

    /**
     * Returns the least ticks-until (unsigned) over the timers in the slots, or the largest unsigned
     * value if they are empty. It walks the occupied slots in order from the current one: the first
     * slot holding a timer of this rotation wins; otherwise every slot is looked at.
     */
    final long minTicks() {
        int start = slotOf(0);
        long min = -1L;
        for (int distance = occupied.nextSetCyclic(start); distance >= 0 && distance <= mask; ) {
            long ticks = minTicksIn(slots[(start + distance) & mask], distance);
            if (ticks == distance) {
                return ticks;
            }
            if (Long.compareUnsigned(ticks, min) < 0) {
                min = ticks;
            }
            // The slot just read is occupied, so the search finds at least that one again.
            distance += occupied.nextSetCyclic((start + distance + 1) & mask) + 1;
        }
        return min;
    }
}
