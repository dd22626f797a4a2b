package dev.hourglass.queue;

/**
 * A node of a heap queue: it knows its slot in the heap, so cancel and reschedule find it in O(1),
 * and the insertion sequence that breaks ties between equal deadlines.
 *
 * <p>Complexity: every method is O(1).
 *
 * <p>Order: none of its own; a heap orders entries by (deadline, seq).
 *
 * <p>Thread-safety: none; owned by one queue.
 */
final class HeapEntry<T> extends QueueEntry<T> implements TimerHandle<T> {

    /** The slot in the heap, or -1 when not pending. */
    int index = -1;

    /** Insertion sequence; a reschedule takes a new one so that it goes behind equal deadlines. */
    long seq;

    HeapEntry(Object owner, T payload, long deadline) {
        super(owner, payload, deadline);
    }

    @Override
    public boolean isPending() {
        return index >= 0;
    }
}
