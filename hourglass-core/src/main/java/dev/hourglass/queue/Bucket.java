package dev.hourglass.queue;

/**
 * The sentinel of a circular list of {@link LinkedEntry} nodes: a wheel slot, or the whole list of
 * a list queue. It knows its index so that a wheel can clear the slot's occupancy bit when the last
 * node leaves in O(1).
 */
final class Bucket<T> extends LinkedEntry<T> {

    final int index;

    Bucket(int index) {
        super(null, null, 0);
        this.index = index;
        prev = this;
        next = this;
    }

    boolean isEmpty() {
        return next == this;
    }

    LinkedEntry<T> first() {
        return next;
    }

    /** Appends a node at the tail; returns true if the bucket was empty before. */
    boolean append(LinkedEntry<T> e) {
        LinkedEntry<T> last = prev;
        e.prev = last;
        e.next = this;
        last.next = e;
        prev = e;
        return last == this;
    }

    /**
     * Inserts {@code e} into a bucket kept sorted by deadline, after every node with an equal
     * deadline, searching from the tail because new deadlines tend to be the latest. Deadlines are
     * compared relative to {@code time}, the owning queue's time. O(nodes passed).
     */
    void insertSorted(LinkedEntry<T> e, long time) {
        LinkedEntry<T> successor = this;
        while (successor.prev != this && e.deadline - time < successor.prev.deadline - time) {
            successor = successor.prev;
        }
        LinkedEntry<T> p = successor.prev;
        e.prev = p;
        e.next = successor;
        p.next = e;
        successor.prev = e;
    }

    /** Moves every node to the tail of {@code target} in O(1), leaving this bucket empty. */
    void transferTo(Bucket<T> target) {
        if (isEmpty()) {
            return;
        }
        LinkedEntry<T> first = next;
        LinkedEntry<T> last = prev;
        LinkedEntry<T> tail = target.prev;
        tail.next = first;
        first.prev = tail;
        last.next = target;
        target.prev = last;
        next = this;
        prev = this;
    }

    @Override
    public String toString() {
        return "Bucket[" + index + "]";
    }
}
