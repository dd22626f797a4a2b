package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * A hashed timing wheel with rounds and unsorted buckets: the articles' scheme 6 (Varghese and
 * Lauck). Any deadline is accepted: it is hashed to slot {@code (current + ticks) & (slots - 1)}
 * and appended there, so one slot holds timers of many rotations. The rounds are implicit: when the
 * wheel reaches a slot it scans the bucket and moves the timers whose deadline has been reached at
 * that tick to a separate list of due timers, from which they are delivered one by one; the others
 * wait for a later rotation. A timer that is already due when scheduled (by the consumer too) goes
 * straight to that list, so a slot is scanned once per visit. Due timers left over when a poll
 * stops at its limit come first at the next poll.
 *
 * <p>Complexity: schedule, cancel and reschedule O(1). Reaching a slot costs a scan of its bucket,
 * O(n / slots) on average, most of it spent on timers of later rotations; each delivered timer then
 * costs O(1). Next deadline O(n) in the worst case: it scans buckets in order from the current slot
 * until one holds a timer of this rotation, else all of them. Moving the wheel skips empty slots 64
 * at a time; after a whole rotation without a delivery while now is at least a rotation away, it
 * jumps to the earliest timer with an O(n) scan, so a long pause costs O(n + slots / 64) per tick
 * that delivers something. Memory: one bucket per slot, allocated up front.
 *
 * <p>Order: tick order; no promise within a tick.
 *
 * <p>Thread-safety: none; confine to one thread.
 *
 * @param <T> the payload type
 */
final class HashedTimingWheel<T> extends AbstractHashedWheel<T> {

    /** The current tick's due timers, outside the ring: its index keeps the bitmap out of it. */
    private final Bucket<T> expired = new Bucket<>(-1);

    HashedTimingWheel(long startTime, long tickNanos, int slots) {
        super(startTime, tickNanos, slots);
    }

    @Override
    void insert(LinkedEntry<T> entry) {
        long ticks = ticksUntil(entry.deadline);
        if (ticks == 0) {
            expired.append(entry);
        } else {
            append(entry, ticks);
        }
    }

    @Override
    int drain(Consumer<? super TimerHandle<T>> consumer, int limit, int count) {
        while (count < limit && !expired.isEmpty()) {
            LinkedEntry<T> first = expired.first();
            first.unlink();
            deliver(first, consumer);
            count++;
        }
        return count;
    }

    @Override
    boolean hasDue() {
        return !expired.isEmpty();
    }

    @Override
    void reached(Bucket<T> bucket) {
        for (LinkedEntry<T> e = bucket.first(); e != bucket; ) {
            LinkedEntry<T> next = e.next;
            if (dueBy(e.deadline, 0)) {
                remove(e);
                expired.append(e);
            }
            e = next;
        }
    }

    @Override
    long minTicksIn(Bucket<T> bucket, int floor) {
        long min = -1L;
        for (LinkedEntry<T> e = bucket.first(); e != bucket; e = e.next) {
            long ticks = ticksUntil(e.deadline);
            if (ticks == floor) {
                return ticks;
            }
            if (Long.compareUnsigned(ticks, min) < 0) {
                min = ticks;
            }
        }
        return min;
    }

    @Override
    long earliest() {
        return boundaryAfter(expired.isEmpty() ? minTicks() : 0);
    }

    @Override
    void removeAll(Consumer<? super LinkedEntry<T>> sink) {
        unlinkAll(expired, sink);
        super.removeAll(sink);
    }
}
