package dev.hourglass.queue;

/**
 * A node of {@link SkipListQueue}: the timer itself, with a forward and a back link for each of
 * its levels, so that a handle unlinks its own node without a search. The level is drawn once, when
 * the timer is scheduled, and kept across reschedules with both arrays. A node is pending while it
 * is linked, which is exactly while {@code next[0]} is set.
 *
 * <p>Thread-safety: none; it belongs to its queue's thread.
 */
final class SkipNode<T> extends QueueEntry<T> implements TimerHandle<T> {

    /** The following node at each level; the queue's head ends every level's ring. */
    final SkipNode<T>[] next;

    /** The preceding node at each level, the head for a level's first node. */
    final SkipNode<T>[] prev;

    @SuppressWarnings("unchecked")
    SkipNode(Object owner, T payload, long deadline, int level) {
        super(owner, payload, deadline);
        this.next = (SkipNode<T>[]) new SkipNode<?>[level];
        this.prev = (SkipNode<T>[]) new SkipNode<?>[level];
    }

    int level() {
        return next.length;
    }

    @Override
    public boolean isPending() {
        return next[0] != null;
    }
}
