package dev.hourglass.queue;

import java.util.Arrays;

/**
 * Timers in a 4-ary min-heap (the children of slot i are 4i+1 to 4i+4) with the keys kept inline
 * in a {@code long[]} beside the array of entries, as libev does: sifts compare keys from the
 * array and never dereference an entry, and the heap is half as deep as a binary one. Each entry
 * still keeps its deadline, so a handle reads it after firing.
 *
 * <p>Complexity: schedule, cancel and reschedule O(log4 n), reschedule sifting in place; next
 * deadline O(1); each delivered timer O(log4 n), comparing up to four children per level.
 *
 * <p>Order: exact, by (deadline, insertion); a reschedule takes a new insertion sequence.
 *
 * <p>Thread-safety: none; confine to one thread.
 */
final class QuaternaryHeapQueue<T> extends AbstractHeapQueue<T> {

    /** Keeps 4i+1 within an int for every slot, and the key array's length 2n within the array limit. */
    private static final int MAX_CAPACITY = 1 << 29;

    /**
     * The key of entries[i] at [2i, 2i+1] as (deadline, seq). Interleaved rather than two parallel
     * arrays so that a slot's whole key is one 16-byte pair: a tie on the deadline reads its seq
     * from the line already loaded, four siblings' keys are 64 contiguous bytes, and growing
     * copies one array instead of two.
     */
    private long[] keys = new long[2 * INITIAL_CAPACITY];

    QuaternaryHeapQueue(long startTime) {
        super(startTime, MAX_CAPACITY);
    }

    @Override
    int siftUp(int hole, HeapEntry<T> e) {
        long deadline = e.deadline;
        long seq = e.seq;
        while (hole > 0) {
            int parent = (hole - 1) >>> 2;
            if (!precedes(deadline, seq, keys[2 * parent], keys[2 * parent + 1])) {
                break;
            }
            copy(parent, hole);
            hole = parent;
        }
        put(hole, e, deadline, seq);
        return hole;
    }

    @Override
    void siftDown(int hole, HeapEntry<T> e) {
        long deadline = e.deadline;
        long seq = e.seq;
        int first;
        while ((first = 4 * hole + 1) < count) {
            int end = Math.min(first + 4, count);
            int min = first;
            long minDeadline = keys[2 * first];
            long minSeq = keys[2 * first + 1];
            for (int c = first + 1; c < end; c++) {
                long d = keys[2 * c];
                long s = keys[2 * c + 1];
                if (precedes(d, s, minDeadline, minSeq)) {
                    min = c;
                    minDeadline = d;
                    minSeq = s;
                }
            }
            if (!precedes(minDeadline, minSeq, deadline, seq)) {
                break;
            }
            copy(min, hole);
            hole = min;
        }
        put(hole, e, deadline, seq);
    }

    @Override
    void resize(int capacity) {
        super.resize(capacity);
        keys = Arrays.copyOf(keys, 2 * capacity);
    }

    /** Moves the entry and key at {@code from} into the hole at {@code to}. */
    private void copy(int from, int to) {
        HeapEntry<T> e = entries[from];
        entries[to] = e;
        e.index = to;
        keys[2 * to] = keys[2 * from];
        keys[2 * to + 1] = keys[2 * from + 1];
    }

    private void put(int slot, HeapEntry<T> e, long deadline, long seq) {
        entries[slot] = e;
        e.index = slot;
        keys[2 * slot] = deadline;
        keys[2 * slot + 1] = seq;
    }
}
