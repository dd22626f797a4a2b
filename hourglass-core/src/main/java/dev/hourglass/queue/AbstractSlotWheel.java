package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * The storage the single-level wheels share: a power-of-two ring of {@link Bucket} slots and a
 * {@link SlotBitmap} of the occupied ones. A timer {@code ticks} ticks after the current tick lives
 * in slot {@code (current + ticks) & (slots - 1)}; each bucket knows its slot, so the last timer to
 * leave clears the slot's bit in O(1).
 *
 * <p>Complexity: linking into a slot and unlinking O(1); {@link #removeAll} O(slots / 64 + n).
 *
 * <p>Order: none of its own; each wheel states its order.
 *
 * <p>Thread-safety: none; confine to one thread.
 *
 * @param <T> the payload type
 */
abstract class AbstractSlotWheel<T> extends AbstractTimingWheel<T> {

    final Bucket<T>[] slots;
    final SlotBitmap occupied;
    final int mask;

    AbstractSlotWheel(long startTime, long tickNanos, int slots) {
        super(startTime, tickNanos);
        // Checked before anything is allocated, so a huge bad value fails fast.
        TimerQueues.requirePowerOfTwo("slots", slots);
        this.slots = newBuckets(slots);
        this.occupied = new SlotBitmap(slots);
        this.mask = slots - 1;
    }

    @SuppressWarnings("unchecked")
    private static <T> Bucket<T>[] newBuckets(int slots) {
        Bucket<T>[] buckets = (Bucket<T>[]) new Bucket<?>[slots];
        for (int i = 0; i < slots; i++) {
            buckets[i] = new Bucket<>(i);
        }
        return buckets;
    }

    /** Returns the slot of the tick {@code ticks} after the current one (unsigned ticks). */
    final int slotOf(long ticks) {
        return (int) (current + ticks) & mask;
    }

    /** Appends a node to the slot of the tick {@code ticks} after the current one. */
    final void append(LinkedEntry<T> entry, long ticks) {
        int slot = slotOf(ticks);
        if (slots[slot].append(entry)) {
            occupied.set(slot);
        }
    }

    @Override
    final void remove(LinkedEntry<T> entry) {
        Bucket<T> emptied = entry.unlink();
        // Buckets outside the ring (index -1) have no bit.
        if (emptied != null && emptied.index >= 0) {
            occupied.clear(emptied.index);
        }
    }

    @Override
    void removeAll(Consumer<? super LinkedEntry<T>> sink) {
        int slot = 0;
        for (int gap = occupied.nextSetCyclic(0); gap >= 0; gap = occupied.nextSetCyclic(slot)) {
            slot = (slot + gap) & mask;
            unlinkAll(slots[slot], sink);
            occupied.clear(slot);
        }
    }

    /** Unlinks every node of {@code bucket}, passing each to {@code sink}; leaves the bit alone. */
    static <T> void unlinkAll(Bucket<T> bucket, Consumer<? super LinkedEntry<T>> sink) {
        while (!bucket.isEmpty()) {
            LinkedEntry<T> e = bucket.first();
            e.unlink();
            sink.accept(e);
        }
    }
}
