package dev.hourglass.queue;

/**
 * Timers in a binary min-heap of entries, each entry knowing its slot (the children of slot i are
 * 2i+1 and 2i+2). Keys are read from the entries themselves, one pointer per comparison: the
 * simplest layout, and the baseline for {@link QuaternaryHeapQueue}.
 *
 * <p>Complexity: schedule, cancel and reschedule O(log2 n), reschedule sifting in place; next
 * deadline O(1); each delivered timer O(log2 n).
 *
 * <p>Order: exact, by (deadline, insertion); a reschedule takes a new insertion sequence.
 *
 * <p>Thread-safety: none; confine to one thread.
 */
final class BinaryHeapQueue<T> extends AbstractHeapQueue<T> {

    /** Keeps 2i+1 within an int for every slot. */
    private static final int MAX_CAPACITY = 1 << 30;

    BinaryHeapQueue(long startTime) {
        super(startTime, MAX_CAPACITY);
    }

    @Override
    int siftUp(int hole, HeapEntry<T> e) {
        while (hole > 0) {
            int parent = (hole - 1) >>> 1;
            HeapEntry<T> p = entries[parent];
            if (!precedes(e, p)) {
                break;
            }
            put(hole, p);
            hole = parent;
        }
        put(hole, e);
        return hole;
    }

    @Override
    void siftDown(int hole, HeapEntry<T> e) {
        int child;
        while ((child = 2 * hole + 1) < count) {
            HeapEntry<T> c = entries[child];
            if (child + 1 < count && precedes(entries[child + 1], c)) {
                c = entries[++child];
            }
            if (!precedes(c, e)) {
                break;
            }
            put(hole, c);
            hole = child;
        }
        put(hole, e);
    }

    private boolean precedes(HeapEntry<T> a, HeapEntry<T> b) {
        return precedes(a.deadline, a.seq, b.deadline, b.seq);
    }

    private void put(int slot, HeapEntry<T> e) {
        entries[slot] = e;
        e.index = slot;
    }
}
