package dev.hourglass.patterns;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@link ConcurrentMap} view of an {@link ExpiringMap}, made by {@link ExpiringMap#asMap()}:
 * every call reads or writes the map itself, so expired entries are invisible here too, and writes
 * use the map's default TTL. {@code replace} and {@code Entry.setValue} change a live entry's value
 * and keep its expiry time. The compound operations ({@code compute}, {@code merge}, ...) are
 * {@link ConcurrentMap}'s defaults, atomic through {@code putIfAbsent}, {@code replace} and {@code
 * remove}.
 *
 * <p>Complexity: as the map's operations; iteration O(n) with one stripe copied at a time.
 * Ordering: iteration order is not specified.
 *
 * <p>Thread-safety: every method may be called from any thread; iterators are weakly consistent.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class ExpiringMapView<K, V> extends AbstractMap<K, V> implements ConcurrentMap<K, V> {

    private final ExpiringMap<K, V> map;
    private final EntrySet entrySet = new EntrySet();

    ExpiringMapView(ExpiringMap<K, V> map) {
        this.map = map;
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public boolean isEmpty() {
        return map.size() == 0;
    }

    @Override
    public V get(Object key) {
        ExpiryNode<K, V> node = map.liveNode(key, map.clock().nanoTime());
        return node == null ? null : node.value();
    }

    @Override
    public boolean containsKey(Object key) {
        return map.liveNode(key, map.clock().nanoTime()) != null;
    }

    @Override
    public boolean containsValue(Object value) {
        Objects.requireNonNull(value, "value");
        for (Iterator<Entry<K, V>> it = entrySet.iterator(); it.hasNext(); ) {
            if (value.equals(it.next().getValue())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public V put(K key, V value) {
        return map.put(key, value, map.defaultTtlNanos(), false);
    }

    @Override
    public V putIfAbsent(K key, V value) {
        return map.put(key, value, map.defaultTtlNanos(), true);
    }

    @Override
    public V remove(Object key) {
        return map.removeIf(key, null);
    }

    @Override
    public boolean remove(Object key, Object value) {
        Objects.requireNonNull(key, "key");
        return value != null && map.removeIf(key, value) != null;
    }

    @Override
    public V replace(K key, V value) {
        return map.replace(key, null, value);
    }

    @Override
    public boolean replace(K key, V oldValue, V newValue) {
        Objects.requireNonNull(oldValue, "oldValue");
        return map.replace(key, oldValue, newValue) != null;
    }

    @Override
    public void clear() {
        map.clear();
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return entrySet;
    }

    /** The entries, read and written through the map. */
    private final class EntrySet extends AbstractSet<Entry<K, V>> {

        @Override
        public Iterator<Entry<K, V>> iterator() {
            map.checkOpen();
            return new LiveEntryIterator<>(map, ViewEntry::new);
        }

        @Override
        public int size() {
            return map.size();
        }

        @Override
        public boolean isEmpty() {
            return map.size() == 0;
        }

        @Override
        public boolean contains(Object o) {
            if (!(o instanceof Map.Entry)) {
                return false;
            }
            Map.Entry<?, ?> entry = (Map.Entry<?, ?>) o;
            Object key = entry.getKey();
            Object value = entry.getValue();
            if (key == null || value == null) {
                return false;
            }
            V current = get(key);
            return current != null && current.equals(value);
        }

        @Override
        public boolean remove(Object o) {
            if (!(o instanceof Map.Entry)) {
                return false;
            }
            Map.Entry<?, ?> entry = (Map.Entry<?, ?>) o;
            Object key = entry.getKey();
            Object value = entry.getValue();
            return key != null && value != null && map.removeIf(key, value) != null;
        }

        @Override
        public void clear() {
            map.clear();
        }
    }

    /** An entry an iterator returned: its value as it was then; setting it writes through. */
    private final class ViewEntry extends SimpleEntry<K, V> {

        private static final long serialVersionUID = 1L;

        ViewEntry(K key, V value) {
            super(key, value);
        }

        @Override
        public V setValue(V value) {
            Objects.requireNonNull(value, "value");
            map.replace(getKey(), null, value);
            return super.setValue(value);
        }
    }
}
