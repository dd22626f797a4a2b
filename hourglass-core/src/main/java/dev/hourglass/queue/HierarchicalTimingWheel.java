package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * A hierarchical timing wheel (Varghese and Lauck's scheme 7, laid out as in skynet): a near wheel
 * of 2<sup>nearBits</sup> slots, one tick each, under {@code levels} upper wheels of
 * 2<sup>levelBits</sup> slots, each slot of level L spanning a whole rotation of the level below,
 * and an overflow list for timers beyond the range of 2<sup>nearBits + levels * levelBits</sup>
 * ticks. The default 8, 6, 4 layout (256 + 4 × 64 slots) covers 2<sup>32</sup> ticks, about 49.7
 * days at a 1 ms tick.
 *
 * <p>Placement reads ticks as bit fields: the lowest {@code nearBits} bits of a tick index the near
 * wheel, the next {@code levelBits} level 1, and so on. A timer due at tick {@code T} goes to the
 * near wheel if {@code T} shares every bit above the near field with the current tick, else to the
 * lowest level above whose field it shares every bit, in the slot its own field names; a timer
 * that shares not even the bits above the top level lies in a later epoch and waits in the overflow
 * list. When the current tick reaches the start of an occupied upper slot (its field equal to the
 * slot, every lower bit zero), the slot cascades: each timer is placed again, one level lower or
 * more. When the current tick enters a new epoch, the overflow list is placed again. An upper
 * slot's field is always greater than the current tick's, so slot 0 of an upper wheel stays empty.
 *
 * <p>Worked example, tick 1 ms, start 0: a timer 300 ms out is due at tick 300 = 1 × 256 + 44.
 * Bits above the near field differ from tick 0 (300 &gt;&gt;&gt; 8 = 1) but not above level 1
 * (300 &gt;&gt;&gt; 14 = 0), so it waits in level 1, slot 1. At tick 256 that slot cascades and the
 * timer moves to near slot 300 &amp; 255 = 44, from which tick 300 delivers it.
 *
 * <p>A poll never walks empty ticks: it jumps from event to event (the next occupied near slot,
 * the next occupied upper slot's cascade, the next epoch if the overflow list holds timers), found
 * with one bitmap per level, so a poll over 2<sup>40</sup> empty ticks costs a few bitmap scans.
 *
 * <p>Complexity: schedule, cancel and reschedule O(1); each timer cascades at most {@code levels}
 * times, plus one placement per epoch it waits in the overflow list; next deadline O(levels ×
 * slots / 64), plus a scan of one upper slot's timers (or the overflow list's when the wheels are
 * empty) only when that slot's earliest deadline is not already known: it is remembered until that
 * timer leaves, a cascade moves timers, or the queue is cleared, and an insertion into the slot
 * keeps it up to date. So a driver asking before every sleep does not rescan a million far timers.
 * The next work ({@code earliestWork}) scans at most {@value #WORK_SCAN_LIMIT} timers of that slot,
 * and a slot found longer not again until the next cascade.
 *
 * <p>Order: by tick, at most one tick late and never early; no promise within a tick.
 *
 * <p>Thread-safety: none; confine to one thread.
 */
final class HierarchicalTimingWheel<T> extends AbstractTimingWheel<T> {

    /** Largest bits per wheel: a bucket's index packs its slot into 16 bits under its level. */
    static final int MAX_WHEEL_BITS = 16;

    /** Largest range in bits, so that the range {@code 2^bits} ticks is a positive long. */
    static final int MAX_RANGE_BITS = 62;

    /** The most timers of an upper slot {@link #earliestWork()} walks to find its earliest one. */
    static final int WORK_SCAN_LIMIT = 16;

    private final int nearBits;
    private final int levelBits;
    private final int levels;
    private final int rangeBits;
    private final int nearMask;
    private final int levelMask;

    /** The largest distance in ticks the wheels can hold: 2^rangeBits - 1. */
    private final long rangeMask;

    /** {@code wheels[0]} is the near wheel, {@code wheels[L]} level L. */
    private final Bucket<T>[][] wheels;

    private final SlotBitmap[] occupied;

    /** Timers of later epochs. Index -1 keeps it, and {@link #scratch}, out of the bitmaps. */
    private final Bucket<T> overflow = new Bucket<>(-1);

    /** Holds a slot's timers while they are placed again, so they may land in the same wheel. */
    private final Bucket<T> scratch = new Bucket<>(-1);

    /** The upper slot (or overflow list) whose earliest deadline is known, or null; and that deadline. */
    private Bucket<T> minBucket;

    private long minDeadline;

    /**
     * An upper slot that a bounded scan found longer than {@link #WORK_SCAN_LIMIT}, not scanned
     * again until the next cascade, or null: a request-timeout stream would rescan it before every
     * sleep.
     */
    private Bucket<T> longSlot;

    HierarchicalTimingWheel(long startTime, long tickNanos, int nearBits, int levelBits, int levels) {
        super(startTime, tickNanos);
        requireWheelBits("nearBits", nearBits);
        requireWheelBits("levelBits", levelBits);
        if (levels < 0) {
            throw new IllegalArgumentException("levels must not be negative: " + levels);
        }
        long rangeBits = nearBits + (long) levels * levelBits;
        if (rangeBits > MAX_RANGE_BITS) {
            throw new IllegalArgumentException("levels is too many: nearBits + levels * levelBits = " + nearBits + " + "
                    + levels + " * " + levelBits + " = " + rangeBits + " exceeds " + MAX_RANGE_BITS);
        }
        this.nearBits = nearBits;
        this.levelBits = levelBits;
        this.levels = levels;
        this.rangeBits = (int) rangeBits;
        this.nearMask = (1 << nearBits) - 1;
        this.levelMask = (1 << levelBits) - 1;
        this.rangeMask = (1L << rangeBits) - 1;
        this.wheels = newWheels();
        this.occupied = new SlotBitmap[levels + 1];
        for (int level = 0; level <= levels; level++) {
            occupied[level] = new SlotBitmap(wheels[level].length);
        }
    }

    private static void requireWheelBits(String name, int bits) {
        if (bits < 1 || bits > MAX_WHEEL_BITS) {
            throw new IllegalArgumentException(name + " must be between 1 and " + MAX_WHEEL_BITS + ": " + bits);
        }
    }

    // Generic arrays cannot be made directly; every element is a Bucket<T>.
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Bucket<T>[][] newWheels() {
        Bucket<T>[][] result = new Bucket[levels + 1][];
        for (int level = 0; level <= levels; level++) {
            int slots = 1 << (level == 0 ? nearBits : levelBits);
            result[level] = new Bucket[slots];
            for (int slot = 0; slot < slots; slot++) {
                result[level][slot] = new Bucket<>(level << MAX_WHEEL_BITS | slot);
            }
        }
        return result;
    }

    /** The lowest bit of level {@code level}'s field in a tick; level 0 is the near wheel. */
    private int shift(int level) {
        return level == 0 ? 0 : nearBits + (level - 1) * levelBits;
    }

    @Override
    void insert(LinkedEntry<T> entry) {
        long ticks = ticksUntil(entry.deadline);
        if (Long.compareUnsigned(ticks, rangeMask) > 0) {
            append(overflow, entry);
            return;
        }
        long target = current + ticks;
        // The highest bit in which the target differs from the current tick picks the wheel: -1 and
        // the near bits mean the near wheel.
        int high = 63 - Long.numberOfLeadingZeros(target ^ current);
        if (high < nearBits) {
            link(0, (int) target & nearMask, entry);
        } else if (high < rangeBits) {
            int level = (high - nearBits) / levelBits + 1;
            link(level, (int) (target >>> shift(level)) & levelMask, entry);
        } else {
            // Within range but across an epoch boundary: the overflow list is placed again there.
            append(overflow, entry);
        }
    }

    private void link(int level, int slot, LinkedEntry<T> entry) {
        if (append(wheels[level][slot], entry)) {
            occupied[level].set(slot);
        }
    }

    /** Appends to a bucket, keeping its known earliest deadline up to date. */
    private boolean append(Bucket<T> bucket, LinkedEntry<T> entry) {
        if (bucket == minBucket && Long.compareUnsigned(ticksUntil(entry.deadline), ticksUntil(minDeadline)) < 0) {
            minDeadline = entry.deadline;
        }
        return bucket.append(entry);
    }

    @Override
    void remove(LinkedEntry<T> entry) {
        if (minBucket != null && entry.deadline == minDeadline) {
            minBucket = null; // perhaps the known earliest leaves: find it again when asked
        }
        Bucket<T> emptied = entry.unlink();
        if (emptied != null && emptied.index >= 0) {
            occupied[emptied.index >>> MAX_WHEEL_BITS].clear(emptied.index & ((1 << MAX_WHEEL_BITS) - 1));
            if (emptied == longSlot) {
                longSlot = null; // refilled later, it may be short
            }
        }
    }

    @Override
    int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        int count = 0;
        while (true) {
            Bucket<T> due = wheels[0][(int) current & nearMask];
            if (!due.isEmpty()) {
                if (count == limit) {
                    break;
                }
                LinkedEntry<T> entry = due.first();
                remove(entry);
                deliver(entry, consumer);
                count++;
                continue;
            }
            long ahead = ticksTo(now);
            if (ahead == 0) {
                break;
            }
            if (size == 0) {
                advance(ahead);
                break;
            }
            long event = nextEvent(ahead);
            if (Long.compareUnsigned(event, ahead) > 0) {
                advance(ahead);
                break;
            }
            advance(event);
            cascade();
        }
        return count;
    }

    /**
     * Returns the distance in ticks (unsigned) to the next tick at which a near slot falls due, an
     * upper slot cascades or the overflow list must be placed again; the current near slot is empty
     * and some timer is pending. Events of a lower wheel always come before those of a higher one,
     * since every occupied slot lies after the current tick's own slot in the same rotation.
     */
    private long nextEvent(long ahead) {
        long event = wheelEvent();
        if (event >= 0) {
            return event;
        }
        // Only the overflow list holds timers: look at it at the next epoch, or, when polling that
        // far, skip straight to the epoch of its earliest timer.
        long nextEpoch = rangeMask + 1 - (current & rangeMask);
        if (Long.compareUnsigned(nextEpoch, ahead) > 0) {
            return nextEpoch;
        }
        long min = minTicks(overflow);
        return min - ((current + min) & rangeMask);
    }

    /**
     * Returns the distance in ticks to the next tick at which a near slot falls due or an upper slot
     * cascades, or -1 if only the overflow list holds timers (or none).
     */
    private long wheelEvent() {
        int nearSlots = occupied[0].nextSetCyclic((int) current & nearMask);
        if (nearSlots >= 0) {
            return nearSlots;
        }
        for (int level = 1; level <= levels; level++) {
            int shift = shift(level);
            int slots = occupied[level].nextSetCyclic((int) (current >>> shift) & levelMask);
            if (slots >= 0) {
                return ((long) slots << shift) - (current & ((1L << shift) - 1));
            }
        }
        return -1;
    }

    /**
     * The next near slot's boundary; or, while the near wheel is empty, the earliest deadline of the
     * lowest occupied upper slot when it is known or the slot holds at most {@link #WORK_SCAN_LIMIT}
     * timers: a poll there cascades on its way, so a driver that sleeps until then is spared a
     * wake-up at the cascade (a timer a little ahead lands in level 1 whenever it crosses a near
     * rotation). Else the slot's cascade: a long slot is not scanned, since a cancel can make its
     * known earliest timer unknown (a request-timeout stream cancels exactly that one, turn after
     * turn).
     */
    @Override
    long earliestWork() {
        long event = wheelEvent();
        if (event < 0) {
            return earliest();
        }
        if (occupied[0].isEmpty()) {
            Bucket<T> upper = lowestUpperSlot();
            long ticks = upper == longSlot && upper != minBucket ? -1L : scanMinTicks(upper, WORK_SCAN_LIMIT);
            if (ticks >= 0) {
                return boundaryAfter(ticks);
            }
            longSlot = upper;
        }
        return boundaryAfter(event);
    }

    /**
     * Places again the timers of whatever the current tick starts: the upper slot of the lowest
     * level whose lower bits are all zero and whose own field is not, or, at a new epoch, the
     * overflow list.
     */
    private void cascade() {
        int zeros = Long.numberOfTrailingZeros(current);
        if (zeros < nearBits) {
            return;
        }
        minBucket = null;
        longSlot = null;
        if (zeros >= rangeBits) {
            overflow.transferTo(scratch);
        } else {
            int level = (zeros - nearBits) / levelBits + 1;
            int slot = (int) (current >>> shift(level)) & levelMask;
            wheels[level][slot].transferTo(scratch);
            occupied[level].clear(slot);
        }
        // Each node is placed again straight from the detached ring, not unlinked first: placing it
        // rewrites both its links, and the ring ends at the sentinel.
        LinkedEntry<T> entry = scratch.first();
        scratch.next = scratch;
        scratch.prev = scratch;
        while (entry != scratch) {
            LinkedEntry<T> next = entry.next;
            insert(entry);
            entry = next;
        }
    }

    @Override
    long earliest() {
        int nearSlots = occupied[0].nextSetCyclic((int) current & nearMask);
        if (nearSlots >= 0) {
            return boundaryAfter(nearSlots);
        }
        Bucket<T> upper = lowestUpperSlot();
        return boundaryAfter(minTicks(upper != null ? upper : overflow));
    }

    /**
     * The first occupied slot of the lowest occupied upper level, or null: a higher level's timers
     * are all later than a lower level's, and a slot's than an earlier slot's of the same level, so
     * it holds the earliest timer while the near wheel is empty.
     */
    private Bucket<T> lowestUpperSlot() {
        for (int level = 1; level <= levels; level++) {
            int index = (int) (current >>> shift(level)) & levelMask;
            int slots = occupied[level].nextSetCyclic(index);
            if (slots >= 0) {
                return wheels[level][(index + slots) & levelMask];
            }
        }
        return null;
    }

    /** As {@link #scanMinTicks} with no limit: the fewest ticks until a timer of the bucket is due. */
    private long minTicks(Bucket<T> bucket) {
        return scanMinTicks(bucket, Integer.MAX_VALUE);
    }

    /**
     * Returns the fewest ticks (unsigned) until a timer of a non-empty bucket is due, scanning the
     * bucket only if its earliest deadline is not known, and remembering it; or -1 if the bucket
     * holds more than {@code limit} timers, which only a bounded scan of an upper slot asks (its
     * timers lie within range, so -1 is no timer's count).
     */
    private long scanMinTicks(Bucket<T> bucket, int limit) {
        if (bucket == minBucket) {
            return ticksUntil(minDeadline);
        }
        // Seeded with the first timer, so that even one 2^64 - 1 ticks away is remembered.
        LinkedEntry<T> first = bucket.first();
        long min = ticksUntil(first.deadline);
        long deadline = first.deadline;
        int scanned = 1;
        for (LinkedEntry<T> e = first.next; e != bucket; e = e.next) {
            if (scanned++ == limit) {
                return -1L;
            }
            long ticks = ticksUntil(e.deadline);
            if (Long.compareUnsigned(ticks, min) < 0) {
                min = ticks;
                deadline = e.deadline;
            }
        }
        minBucket = bucket;
        minDeadline = deadline;
        return min;
    }

    @Override
    void removeAll(Consumer<? super LinkedEntry<T>> sink) {
        minBucket = null;
        longSlot = null;
        for (int level = 0; level <= levels; level++) {
            Bucket<T>[] wheel = wheels[level];
            for (int slot = occupied[level].nextSetCyclic(0); slot >= 0; slot = occupied[level].nextSetCyclic(0)) {
                AbstractSlotWheel.unlinkAll(wheel[slot], sink);
                occupied[level].clear(slot);
            }
        }
        AbstractSlotWheel.unlinkAll(overflow, sink);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[size=" + size + ", time=" + time + ", tick=" + tickNanos
                + ", currentTick=" + current + ", layout=" + nearBits + "+" + levels + "x" + levelBits + "]";
    }
}
