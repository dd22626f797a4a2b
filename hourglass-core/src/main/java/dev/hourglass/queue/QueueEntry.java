package dev.hourglass.queue;

/**
 * What every structure's node has in common: the queue that made it, the payload and the latest
 * deadline. The owner is kept so that a handle from another queue is refused instead of corrupting
 * this one. Only the leaves that users hold implement {@link TimerHandle}; sentinels do not.
 */
abstract class QueueEntry<T> {

    final Object owner;
    final T payload;
    long deadline;

    QueueEntry(Object owner, T payload, long deadline) {
        this.owner = owner;
        this.payload = payload;
        this.deadline = deadline;
    }

    /**
     * Returns the payload given when the node was made.
     *
     * @return the payload
     */
    public final T payload() {
        return payload;
    }

    /**
     * Returns the node's deadline, read without synchronization.
     *
     * @return the deadline in nanoseconds
     */
    public final long deadline() {
        return deadline;
    }

    /**
     * Tells whether the node is linked into its queue.
     *
     * @return true while the node is pending
     */
    public abstract boolean isPending();

    @Override
    public String toString() {
        return "TimerHandle[deadline=" + deadline + ", payload=" + payload + (isPending() ? ", pending]" : "]");
    }
}
