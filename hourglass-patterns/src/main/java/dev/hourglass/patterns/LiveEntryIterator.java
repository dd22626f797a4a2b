package dev.hourglass.patterns;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;

/**
 * Iterates over the live entries of an {@link ExpiringMap}, one stripe at a time: each stripe's
 * nodes are copied under its lock when the iterator reaches it, then returned without the lock,
 * skipping those that have expired by the time the iterator comes to them. Weakly consistent, as
 * the iterators of {@link java.util.concurrent.ConcurrentHashMap}: it never throws {@link
 * java.util.ConcurrentModificationException}, returns each key at most once (a key always lives in
 * the same stripe), and reflects every change made before the iterator reached the key's stripe.
 *
 * <p>Complexity: O(1) amortised per entry. Ordering: not specified.
 *
 * <p>Thread-safety: one thread at a time, like every iterator.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class LiveEntryIterator<K, V> implements Iterator<Map.Entry<K, V>> {

    private final ExpiringMap<K, V> map;
    private final BiFunction<K, V, Map.Entry<K, V>> entries;
    private final ExpirySegment<K, V>[] segments;
    private int nextSegment;
    private List<ExpiryNode<K, V>> nodes = List.of();
    private int nextNode;
    private Map.Entry<K, V> next;
    private K lastKey;

    LiveEntryIterator(ExpiringMap<K, V> map, BiFunction<K, V, Map.Entry<K, V>> entries) {
        this.map = map;
        this.entries = entries;
        this.segments = map.segments();
        advance();
    }

    @Override
    public boolean hasNext() {
        return next != null;
    }

    @Override
    public Map.Entry<K, V> next() {
        if (next == null) {
            throw new NoSuchElementException();
        }
        Map.Entry<K, V> entry = next;
        lastKey = entry.getKey();
        advance();
        return entry;
    }

    @Override
    public void remove() {
        if (lastKey == null) {
            throw new IllegalStateException("next() has not returned an entry since the last remove()");
        }
        map.removeIf(lastKey, null);
        lastKey = null;
    }

    private void advance() {
        next = null;
        while (true) {
            while (nextNode < nodes.size()) {
                ExpiryNode<K, V> node = nodes.get(nextNode++);
                // Value after deadline: a put seen through the deadline is seen in the value.
                boolean live = node.isLiveAt(map.clock().nanoTime());
                V value = node.value();
                if (live) {
                    next = entries.apply(node.key, value);
                    return;
                }
            }
            if (nextSegment == segments.length) {
                return;
            }
            ExpirySegment<K, V> segment = segments[nextSegment++];
            segment.lock.lock();
            try {
                map.checkOpen();
                nodes = segment.snapshot();
            } finally {
                segment.lock.unlock();
            }
            nextNode = 0;
        }
    }
}
