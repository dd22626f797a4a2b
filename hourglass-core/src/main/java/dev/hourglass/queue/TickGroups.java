package dev.hourglass.queue;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The slots of a hashed wheel with rounds, each holding its timers grouped by tick: one group per
 * tick that holds timers, and per slot a ring of its groups in tick order (the order of rounds).
 * So the wheel learns what a slot holds for this round from its first group alone, and never looks
 * at the timers of later rounds: reaching a slot, finding the next tick that holds timers and
 * catching up after a pause cost O(1) per occupied slot passed, whatever the number of timers.
 *
 * <p>Layout: groups are numbered; numbers below {@code slots} are the slots' ring sentinels, the
 * others are groups in use or free for reuse. A group's timers are linked in a {@link Bucket}
 * whose index is the group's number, so the last timer to leave names its group in O(1). Ticks
 * are the wheel's 64-bit tick counter and are compared by their distance from the current tick.
 *
 * <p>Complexity: {@link #bucketOf} O(1) plus one step per group passed, walking from the end of
 * the slot whose tick is nearer (O(1) when a slot's new timers are its latest, as a fixed
 * timeout's are, or its earliest); {@link #release}, {@link #firstTick} and {@link #takeFirst}
 * O(1). Memory: per group a bucket node and 20 bytes of array cells (its tick, two links and the
 * bucket's reference), kept for reuse once made.
 *
 * <p>Thread-safety: none; owned by one wheel.
 *
 * @param <T> the payload type
 */
final class TickGroups<T> {

    private final int slots;
    private final int mask;

    /** Tick of each group; unused for sentinels. */
    private long[] ticks;

    /** Ring links: of a sentinel, the slot's last and first groups. Free groups chain on next. */
    private int[] prev;

    private int[] next;
    private Bucket<T>[] buckets;

    /** The first free group, or -1. */
    private int free = -1;

    /** Groups made so far, sentinels included. */
    private int made;

    TickGroups(int slots) {
        this.slots = slots;
        this.mask = slots - 1;
        int capacity = slots + 64;
        this.ticks = new long[capacity];
        this.prev = new int[capacity];
        this.next = new int[capacity];
        this.buckets = newBuckets(capacity);
        for (int slot = 0; slot < slots; slot++) {
            prev[slot] = slot;
            next[slot] = slot;
        }
        this.made = slots;
    }

    @SuppressWarnings("unchecked")
    private static <T> Bucket<T>[] newBuckets(int capacity) {
        return (Bucket<T>[]) new Bucket<?>[capacity];
    }

    /** True if {@code bucket} holds a group's timers (and is not some other list). */
    boolean isGroup(Bucket<T> bucket) {
        return bucket.index >= slots;
    }

    /** True if the slot holds no group. */
    boolean isEmpty(int slot) {
        return next[slot] == slot;
    }

    /** The tick of the slot's first group; the slot must not be empty. */
    long firstTick(int slot) {
        return ticks[next[slot]];
    }

    /**
     * Returns the bucket of the group of {@code tick}, which lies after {@code current}, making the
     * group if needed; its timers are all due at that tick.
     */
    Bucket<T> bucketOf(long tick, long current) {
        int slot = (int) tick & mask;
        long distance = tick - current;
        // Walk from the end whose tick is nearer: a slot's new timers tend to be its latest (a
        // fixed timeout) or its earliest (a short timeout among long ones).
        int first = next[slot];
        int last = prev[slot];
        int after;
        if (first == slot || Long.compareUnsigned(distance, ticks[first] - current) < 0) {
            after = slot;
        } else if (Long.compareUnsigned(distance, ticks[last] - current) >= 0) {
            after = last;
        } else if (Long.compareUnsigned(distance - (ticks[first] - current), (ticks[last] - current) - distance) <= 0) {
            after = first;
            while (Long.compareUnsigned(ticks[next[after]] - current, distance) <= 0) {
                after = next[after];
            }
        } else {
            after = last;
            while (Long.compareUnsigned(ticks[after] - current, distance) > 0) {
                after = prev[after];
            }
        }
        if (after != slot && ticks[after] == tick) {
            return buckets[after];
        }
        int group = allocate();
        ticks[group] = tick;
        int before = next[after];
        prev[group] = after;
        next[group] = before;
        next[after] = group;
        prev[before] = group;
        return buckets[group];
    }

    /**
     * Unlinks the group whose bucket has just been emptied and keeps it for reuse.
     *
     * @return its slot if the slot now holds no group, else -1
     */
    int release(Bucket<T> emptied) {
        int group = emptied.index;
        int slot = (int) ticks[group] & mask;
        int p = prev[group];
        int n = next[group];
        next[p] = n;
        prev[n] = p;
        next[group] = free;
        free = group;
        return next[slot] == slot ? slot : -1;
    }

    /**
     * Moves the timers of the slot's first group to the tail of {@code target} and releases the
     * group.
     *
     * @return the slot if it now holds no group, else -1
     */
    int takeFirst(int slot, Bucket<T> target) {
        Bucket<T> bucket = buckets[next[slot]];
        bucket.transferTo(target);
        return release(bucket);
    }

    /** Unlinks every timer of the slot, passing each to {@code sink}, and releases its groups. */
    void removeAll(int slot, Consumer<? super LinkedEntry<T>> sink) {
        while (!isEmpty(slot)) {
            Bucket<T> bucket = buckets[next[slot]];
            AbstractSlotWheel.unlinkAll(bucket, sink);
            release(bucket);
        }
    }

    private int allocate() {
        if (free >= 0) {
            int group = free;
            free = next[group];
            return group;
        }
        if (made == ticks.length) {
            grow();
        }
        int group = made++;
        buckets[group] = new Bucket<>(group);
        return group;
    }

    private void grow() {
        // Group numbers are bucket indexes, so at most one group per int (and per timer).
        int capacity = (int) Math.min((long) ticks.length * 2, Integer.MAX_VALUE - 8);
        if (capacity == ticks.length) {
            throw new IllegalStateException("too many ticks hold timers: " + ticks.length);
        }
        ticks = Arrays.copyOf(ticks, capacity);
        prev = Arrays.copyOf(prev, capacity);
        next = Arrays.copyOf(next, capacity);
        buckets = Arrays.copyOf(buckets, capacity);
    }
}
