package dev.hourglass.queue;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * What the binary and the 4-ary heap share: the array of entries, each knowing its slot, the
 * insertion sequence, the operations written as holes to fill (append then sift up, fill the hole
 * with the last entry, sift in place on reschedule) and the array's growth and shrinking. A layout
 * supplies only its sifts, which decide how keys are stored and compared.
 *
 * <p>Complexity: schedule, cancel and reschedule O(log n) in the heap's arity; next deadline O(1);
 * each delivered timer O(log n). The array doubles when full and halves when a quarter full, never
 * below {@link #INITIAL_CAPACITY}, so a burst does not pin memory.
 *
 * <p>Order: exact, by (deadline read relative to the queue's time, insertion sequence). Moving the
 * time forward keeps the order of any two pending deadlines while both lie within {@code
 * Long.MAX_VALUE} of it, so the heap stays valid across polls.
 *
 * <p>Thread-safety: none; confine to one thread.
 */
abstract class AbstractHeapQueue<T> extends AbstractTimerQueue<T, HeapEntry<T>> {

    static final int INITIAL_CAPACITY = 16;

    /** The heap; slots from {@link #count} on are null. */
    HeapEntry<T>[] entries = newArray(INITIAL_CAPACITY);

    /** Entries in the heap; kept apart from size, which the base class changes around our calls. */
    int count;

    /** A power of two that keeps the layout's child index arithmetic within an int. */
    private final int maxCapacity;

    /** Counts insertions; 64 bits cannot wrap in practice, so plain comparison orders it. */
    private long nextSeq;

    AbstractHeapQueue(long startTime, int maxCapacity) {
        super(startTime);
        this.maxCapacity = maxCapacity;
    }

    /**
     * Fills the hole at {@code hole} with {@code e}, moving it towards the root while it precedes
     * its parent; sets its slot and stores its key.
     *
     * @return the slot where {@code e} ended
     */
    abstract int siftUp(int hole, HeapEntry<T> e);

    /**
     * Fills the hole at {@code hole} with {@code e}, moving it towards the leaves while a child
     * precedes it; sets its slot and stores its key.
     */
    abstract void siftDown(int hole, HeapEntry<T> e);

    /** Changes the capacity to {@code capacity}, at least {@link #count}. */
    void resize(int capacity) {
        entries = Arrays.copyOf(entries, capacity);
    }

    /** True if key (deadlineA, seqA) comes before key (deadlineB, seqB). */
    final boolean precedes(long deadlineA, long seqA, long deadlineB, long seqB) {
        return deadlineA == deadlineB ? seqA < seqB : before(deadlineA, deadlineB);
    }

    @Override
    final HeapEntry<T> newEntry(T payload, long deadline) {
        return new HeapEntry<>(this, payload, deadline);
    }

    @Override
    final void insert(HeapEntry<T> entry) {
        if (count == entries.length) {
            // Checked before any change, so a refused schedule leaves the heap as it was.
            if (count == maxCapacity) {
                throw new IllegalStateException("queue is full: size=" + count);
            }
            resize(2 * count);
        }
        entry.seq = nextSeq++;
        siftUp(count++, entry);
    }

    @Override
    final void remove(HeapEntry<T> entry) {
        removeAt(entry.index);
    }

    /** Sifts in place: no allocation, and half the work of a remove and an insert. */
    @Override
    final void move(HeapEntry<T> entry, long deadline) {
        entry.deadline = deadline;
        entry.seq = nextSeq++;
        sift(entry.index, entry);
    }

    @Override
    final int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        int delivered = 0;
        while (delivered < limit && count > 0 && entries[0].deadline - now <= 0) {
            HeapEntry<T> root = entries[0];
            removeAt(0);
            deliver(root, consumer);
            delivered++;
        }
        return delivered;
    }

    @Override
    final long earliest() {
        return entries[0].deadline;
    }

    @Override
    final void removeAll(Consumer<? super HeapEntry<T>> sink) {
        int n = count;
        count = 0;
        for (int i = 0; i < n; i++) {
            HeapEntry<T> e = entries[i];
            entries[i] = null;
            e.index = -1;
            sink.accept(e);
        }
        if (entries.length > INITIAL_CAPACITY) {
            resize(INITIAL_CAPACITY);
        }
    }

    /** The length of the heap's array, for tests of growth and shrinking. */
    final int capacity() {
        return entries.length;
    }

    /** Takes the entry at {@code index} out and fills the hole with the last entry. */
    private void removeAt(int index) {
        HeapEntry<T> removed = entries[index];
        HeapEntry<T> last = entries[--count];
        entries[count] = null;
        if (last != removed) {
            sift(index, last);
        }
        removed.index = -1;
        // Halving at a quarter leaves the array half full, so alternating remove and insert at the
        // boundary cannot resize back and forth.
        if (count <= entries.length >>> 2 && entries.length > INITIAL_CAPACITY) {
            resize(entries.length >>> 1);
        }
    }

    /** Fills a hole in the middle, where the entry may belong above or below it. */
    private void sift(int hole, HeapEntry<T> e) {
        if (siftUp(hole, e) == hole) {
            siftDown(hole, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> HeapEntry<T>[] newArray(int length) {
        return (HeapEntry<T>[]) new HeapEntry<?>[length];
    }
}
