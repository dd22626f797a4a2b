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

    /**
     * Sorts the nodes by deadline, relative to {@code time} as {@link #insertSorted} compares them;
     * stable, so equal deadlines keep their order. A merge sort of the list: O(n log n), recursion
     * depth O(log n), no allocation.
     */
    void sortByDeadline(long time) {
        if (next == prev) {
            return; // empty or one node
        }
        prev.next = null;
        relink(mergeSort(next, time));
    }

    /**
     * Makes a null-terminated chain linked by {@code next}, holding every node of this bucket, the
     * bucket's list again: sets the back links and closes the ring.
     */
    void relink(LinkedEntry<T> head) {
        next = head;
        LinkedEntry<T> before = this;
        for (LinkedEntry<T> e = head; e != null; e = e.next) {
            e.prev = before;
            before = e;
        }
        before.next = this;
        prev = before;
    }

    /** Sorts a null-terminated chain linked by {@code next}; returns its new head. */
    private static <T> LinkedEntry<T> mergeSort(LinkedEntry<T> head, long time) {
        if (head.next == null) {
            return head;
        }
        LinkedEntry<T> slow = head;
        for (LinkedEntry<T> fast = head.next.next; fast != null && fast.next != null; fast = fast.next.next) {
            slow = slow.next;
        }
        LinkedEntry<T> second = slow.next;
        slow.next = null;
        LinkedEntry<T> a = mergeSort(head, time);
        LinkedEntry<T> b = mergeSort(second, time);
        LinkedEntry<T> first = null;
        LinkedEntry<T> last = null;
        while (a != null && b != null) {
            LinkedEntry<T> take;
            // a's node first on a tie: the sort is stable
            if (b.deadline - time < a.deadline - time) {
                take = b;
                b = b.next;
            } else {
                take = a;
                a = a.next;
            }
            if (last == null) {
                first = take;
            } else {
                last.next = take;
            }
            last = take;
        }
        last.next = a != null ? a : b;
        return first;
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
