package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * What the two hashed wheels with rounds (Varghese and Lauck's schemes 5 and 6) share: any deadline
 * is accepted and hashed to slot {@code tick & (slots - 1)} of its tick, so one slot holds timers
 * of many rotations. Within a slot the timers are grouped by tick, the groups in tick order (see
 * {@link TickGroups}), so a slot's first group says whether it holds anything due this round, and
 * the timers of later rounds are never looked at until their round comes.
 *
 * <p>Every pending timer's tick is at or after the current tick. The current tick's timers wait in
 * a list of their own, from which they are delivered one by one (a poll that stops at its limit
 * leaves the rest there, first in line); a timer already due when scheduled joins that list. A
 * poll moves the current tick to the next tick that holds timers, found from the slots' first
 * groups, and takes that tick's group into the list.
 *
 * <p>Complexity: each subclass states it; this class gives it O(1) per occupied slot passed (empty
 * slots skipped 64 at a time) to find the next tick holding timers, at most O(slots) however far
 * away it lies, and never a look at a timer of a later round.
 *
 * <p>Order: tick order; each subclass states its order within a tick.
 *
 * <p>Thread-safety: none; confine to one thread.
 *
 * @param <T> the payload type
 */
abstract class AbstractHashedWheel<T> extends AbstractTimingWheel<T> {

    final int slotCount;
    private final int mask;
    private final SlotBitmap occupied;
    private final TickGroups<T> groups;

    /** The current tick's timers, outside the slots: its index keeps it out of the groups. */
    private final Bucket<T> due = new Bucket<>(-1);

    AbstractHashedWheel(long startTime, long tickNanos, int slots) {
        super(startTime, tickNanos);
        // Checked before anything is allocated, so a huge bad value fails fast.
        TimerQueues.requirePowerOfTwo("slots", slots);
        this.slotCount = slots;
        this.mask = slots - 1;
        this.occupied = new SlotBitmap(slots);
        this.groups = new TickGroups<>(slots);
    }

    /**
     * Links {@code entry} into {@code bucket}, whose timers share one tick: a tick group, or when
     * {@code due} the current tick's list, which is delivered in the wheel's order as it stands.
     */
    abstract void join(Bucket<T> bucket, LinkedEntry<T> entry, boolean due);

    /** Puts a tick's timers, just taken into the current tick's list, in the wheel's order. */
    abstract void took(Bucket<T> due);

    @Override
    final void insert(LinkedEntry<T> entry) {
        long ticks = ticksUntil(entry.deadline);
        if (ticks == 0) {
            join(due, entry, true);
            return;
        }
        long tick = current + ticks;
        join(groups.bucketOf(tick, current), entry, false);
        occupied.set((int) tick & mask);
    }

    @Override
    final void remove(LinkedEntry<T> entry) {
        Bucket<T> emptied = entry.unlink();
        if (emptied != null && groups.isGroup(emptied)) {
            int slot = groups.release(emptied);
            if (slot >= 0) {
                occupied.clear(slot);
            }
        }
    }

    @Override
    final int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        int count = 0;
        while (true) {
            while (count < limit && !due.isEmpty()) {
                LinkedEntry<T> first = due.first();
                first.unlink();
                deliver(first, consumer);
                count++;
            }
            if (!due.isEmpty()) {
                // Stopped by the limit; the rest of this tick comes first next time.
                return count;
            }
            long remaining = ticksTo(now);
            if (remaining == 0) {
                return count;
            }
            advance(ticksToNext(remaining));
            int slot = (int) current & mask;
            if (!groups.isEmpty(slot) && groups.firstTick(slot) == current) {
                if (groups.takeFirst(slot, due) >= 0) {
                    occupied.clear(slot);
                }
                took(due);
            }
        }
    }

    /**
     * Returns how many ticks (unsigned) after the current one the next tick holding timers lies, or
     * {@code cap} if that is sooner. It walks the occupied slots in order from the next one: the
     * first whose first group falls in this round wins; a slot further than {@code cap} ends the
     * walk; after a whole rotation, the nearest first group of all.
     */
    private long ticksToNext(long cap) {
        int start = (int) current & mask;
        long min = cap;
        int distance = 0;
        while (true) {
            int gap = occupied.nextSetCyclic((start + distance + 1) & mask);
            if (gap < 0) {
                return min;
            }
            distance += gap + 1;
            if (distance > slotCount || Long.compareUnsigned(distance, min) >= 0) {
                return min;
            }
            long ticks = groups.firstTick((start + distance) & mask) - current;
            if (ticks == distance) {
                return ticks;
            }
            if (Long.compareUnsigned(ticks, min) < 0) {
                min = ticks;
            }
        }
    }

    @Override
    final long earliest() {
        return boundaryAfter(due.isEmpty() ? ticksToNext(-1L) : 0);
    }

    @Override
    final void removeAll(Consumer<? super LinkedEntry<T>> sink) {
        AbstractSlotWheel.unlinkAll(due, sink);
        for (int slot = occupied.nextSetCyclic(0); slot >= 0; slot = occupied.nextSetCyclic(0)) {
            groups.removeAll(slot, sink);
            occupied.clear(slot);
        }
    }
}
