package dev.hourglass.queue;

/**
 * A node of a circular doubly linked list with a {@link Bucket} sentinel, so that unlinking needs
 * no reference to the list and no null checks. A node is pending while it is linked. Three kinds
 * extend it: {@link ListEntry} (a user's handle), {@link Bucket} (a sentinel, not a handle) and
 * {@link TimerNode} (a driver's own timeout, linked without a second object).
 */
abstract class LinkedEntry<T> extends QueueEntry<T> {

    LinkedEntry<T> prev;
    LinkedEntry<T> next;

    LinkedEntry(Object owner, T payload, long deadline) {
        super(owner, payload, deadline);
    }

    @Override
    public final boolean isPending() {
        return next != null;
    }

    /**
     * Unlinks this node in O(1).
     *
     * @return the bucket this node leaves empty, or null if its bucket still holds other nodes
     */
    final Bucket<T> unlink() {
        LinkedEntry<T> p = prev;
        LinkedEntry<T> n = next;
        p.next = n;
        n.prev = p;
        prev = null;
        next = null;
        // With a sentinel, the ring has one node left exactly when both neighbours are the same.
        return p == n ? (Bucket<T>) p : null;
    }
}
