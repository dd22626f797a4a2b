package dev.hourglass.queue;

/**
 * What every structure's node has in common: the queue that made it, the payload and the latest
 * deadline. The owner is kept so that a handle from another queue is refused instead of corrupting
 * this one.
 */
abstract class QueueEntry<T> implements TimerHandle<T> {

    final Object owner;
    final T payload;
    long deadline;

    QueueEntry(Object owner, T payload, long deadline) {
        this.owner = owner;
        this.payload = payload;
        this.deadline = deadline;
    }

    @Override
    public final T payload() {
        return payload;
    }

    @Override
    public final long deadline() {
        return deadline;
    }

    @Override
    public String toString() {
        return "TimerHandle[deadline=" + deadline + ", payload=" + payload + (isPending() ? ", pending]" : "]");
    }
}
