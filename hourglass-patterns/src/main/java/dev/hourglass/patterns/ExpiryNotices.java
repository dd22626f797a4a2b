package dev.hourglass.patterns;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * How an {@link ExpiringMap} tells its listener of expired entries, and the count of them: every
 * entry of a batch is reported even if the listener throws, and the first exception, with the
 * others suppressed in it, reaches whoever found the batch once all are reported.
 *
 * <p>Complexity: O(1) per entry. Ordering: a batch in its list's order.
 *
 * <p>Thread-safety: any thread; the listener is called outside every lock of the map.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class ExpiryNotices<K, V> {

    private final BiConsumer<? super K, ? super V> listener;

    /** Striped: passes, puts and reads count expiries without contending; summed by {@link #count}. */
    private final LongAdder expirations = new LongAdder();

    ExpiryNotices(BiConsumer<? super K, ? super V> listener) {
        this.listener = listener;
    }

    /** Counts one expiry and tells the listener of it. */
    void expired(K key, V value) {
        expirations.increment();
        listener.accept(key, value);
    }

    /** Counts and tells the listener of one expiry, if {@code value} is not null; keeps the first failure. */
    RuntimeException report(RuntimeException failure, K key, V value) {
        if (value == null) {
            return failure;
        }
        expirations.increment();
        return tell(failure, key, value);
    }

    /**
     * Reports a batch of expired entries, counted once for the batch (one atomic add, not one per
     * entry, after the listener has heard them), then throws the listener's first exception, if any.
     */
    void announce(List<ExpiryNode<K, V>> expired) {
        RuntimeException failure = null;
        int heard = 0;
        try {
            for (ExpiryNode<K, V> node : expired) {
                V value = node.value();
                if (value != null) {
                    heard++;
                    failure = tell(failure, node.key, value);
                }
            }
        } finally {
            expirations.add(heard);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Tells the listener of one expiry; keeps the first failure, the later ones suppressed in it. */
    private RuntimeException tell(RuntimeException failure, K key, V value) {
        try {
            listener.accept(key, value);
        } catch (RuntimeException e) {
            if (failure == null) {
                return e;
            }
            failure.addSuppressed(e);
        }
        return failure;
    }

    /** The expiries reported so far. */
    long count() {
        return expirations.sum();
    }
}
