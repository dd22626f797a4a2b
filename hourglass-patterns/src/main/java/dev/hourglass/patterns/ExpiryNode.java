package dev.hourglass.patterns;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One mapping of an {@link ExpiringMap}, and at the same time its link in the segment's hash chain
 * and its place in the segment's {@link ExpiryWheel}: one object per entry, the deadline a
 * primitive, so an entry costs this object and a share of the hash table, nothing more. A node with
 * a null key is a wheel bucket's sentinel.
 *
 * <p>A put of a live key changes the value and deadline of the node in place (value first, then
 * deadline, both with release stores) instead of linking a new node; a lock-free reader loads the
 * deadline, then the value (acquire loads), so a reader that sees the new deadline sees the new
 * value. A node that left the map is never put back.
 *
 * <p>Complexity: O(1). Ordering: not applicable.
 *
 * <p>Thread-safety: {@link #value}, {@link #deadline} and {@link #next} are written under the
 * segment's lock and read from any thread through the accessors; {@link #wheelPrev} and {@link
 * #wheelNext} are read and written under the segment's lock only.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class ExpiryNode<K, V> {

    private static final VarHandle VALUE;
    private static final VarHandle DEADLINE;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            VALUE = lookup.findVarHandle(ExpiryNode.class, "value", Object.class);
            DEADLINE = lookup.findVarHandle(ExpiryNode.class, "deadline", long.class);
            NEXT = lookup.findVarHandle(ExpiryNode.class, "next", ExpiryNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final K key;
    private V value;
    private long deadline;
    private ExpiryNode<K, V> next;

    /** The wheel's ring: a sentinel's neighbours, or null while the node is in no bucket. */
    ExpiryNode<K, V> wheelPrev;

    ExpiryNode<K, V> wheelNext;

    ExpiryNode(K key, V value, long deadline) {
        this.key = key;
        this.value = value;
        this.deadline = deadline;
    }

    /** A bucket's sentinel: an empty ring. */
    static <K, V> ExpiryNode<K, V> sentinel() {
        ExpiryNode<K, V> sentinel = new ExpiryNode<>(null, null, 0);
        sentinel.wheelPrev = sentinel;
        sentinel.wheelNext = sentinel;
        return sentinel;
    }

    @SuppressWarnings("unchecked")
    V value() {
        return (V) VALUE.getAcquire(this);
    }

    void value(V value) {
        VALUE.setRelease(this, value);
    }

    long deadline() {
        return (long) DEADLINE.getAcquire(this);
    }

    void deadline(long deadline) {
        DEADLINE.setRelease(this, deadline);
    }

    @SuppressWarnings("unchecked")
    ExpiryNode<K, V> next() {
        return (ExpiryNode<K, V>) NEXT.getAcquire(this);
    }

    void next(ExpiryNode<K, V> next) {
        NEXT.setRelease(this, next);
    }

    /** Tells whether the entry is visible at {@code now}: expiry is at, not after, the instant. */
    boolean isLiveAt(long now) {
        return now - deadline() < 0;
    }
}
