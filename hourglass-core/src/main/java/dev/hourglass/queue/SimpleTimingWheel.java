package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * A single wheel of {@code slots} ticks with a maximum interval: the articles' simple wheel
 * (Varghese and Lauck's scheme 4). A timer may lie at most {@code slots - 1} ticks after the
 * current tick, so every slot holds the timers of exactly one tick and every occupied slot is due
 * when the wheel reaches it; a deadline beyond that range is refused with an {@link
 * IllegalArgumentException}. The range is counted from the current tick, which lags behind {@link
 * #time()} while a poll delivers (inside the consumer it is the tick being delivered, so re-arm a
 * periodic timer from {@code handle.deadline()}) and after a poll that stopped at its limit with
 * due timers left. {@link #horizon()} tells the furthest deadline accepted now.
 *
 * <p>Slot {@code s} holds the tick {@code t} with {@code t & (slots - 1) == s}. A bitmap of occupied
 * slots lets a poll jump over empty ticks 64 slots at a time, so a poll after a long pause costs at
 * most one pass over the bitmap per delivering tick, never one step per tick.
 *
 * <p>Complexity: schedule, cancel and reschedule O(1); next deadline O(slots / 64); each delivered
 * timer O(1), plus O(slots / 64) to find the next occupied slot when its tick is done. Memory: one
 * bucket per slot, allocated up front.
 *
 * <p>Order: tick order; within a tick, insertion order (a reschedule counts as a new insertion).
 *
 * <p>Thread-safety: none; confine to one thread.
 *
 * @param <T> the payload type
 */
final class SimpleTimingWheel<T> extends AbstractSlotWheel<T> {

    SimpleTimingWheel(long startTime, long tickNanos, int slots) {
        super(startTime, tickNanos, slots);
    }

    @Override
    void checkDeadline(long deadline) {
        if (Long.compareUnsigned(ticksUntil(deadline), mask) > 0) {
            long rangeNanos = mask <= Long.MAX_VALUE / tickNanos ? mask * tickNanos : Long.MAX_VALUE;
            throw new IllegalArgumentException("deadline lies beyond the wheel's range of " + mask + " ticks ("
                    + rangeNanos + " ns) after the current tick at " + currentTime + ": " + deadline);
        }
    }

    @Override
    public long horizon() {
        return boundaryAfter(mask);
    }

    @Override
    void insert(LinkedEntry<T> entry) {
        append(entry, ticksUntil(entry.deadline));
    }

    @Override
    int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        int count = 0;
        while (true) {
            // Everything in the current slot is due, including what the consumer appends to it.
            Bucket<T> bucket = slots[slotOf(0)];
            if (!bucket.isEmpty()) {
                if (count == limit) {
                    break;
                }
                LinkedEntry<T> first = bucket.first();
                remove(first);
                deliver(first, consumer);
                count++;
                continue;
            }
            long remaining = ticksTo(now);
            if (remaining == 0) {
                break;
            }
            // Every occupied slot lies within one rotation and is due when reached, so the wheel
            // goes to the next one, unless the tick of now comes first.
            int gap = occupied.nextSetCyclic(slotOf(1));
            advance(gap < 0 || Long.compareUnsigned(gap + 1, remaining) > 0 ? remaining : gap + 1);
        }
        return count;
    }

    @Override
    long earliest() {
        return boundaryAfter(occupied.nextSetCyclic(slotOf(0)));
    }
}
