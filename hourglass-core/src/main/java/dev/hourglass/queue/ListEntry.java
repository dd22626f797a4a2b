package dev.hourglass.queue;

/**
 * The handle a linked structure (the lists and the wheels) gives its users: a {@link LinkedEntry}
 * that is also a {@link TimerHandle}.
 *
 * <p>Thread-safety: none; it belongs to its queue's thread.
 */
final class ListEntry<T> extends LinkedEntry<T> implements TimerHandle<T> {

    ListEntry(Object owner, T payload, long deadline) {
        super(owner, payload, deadline);
    }
}
