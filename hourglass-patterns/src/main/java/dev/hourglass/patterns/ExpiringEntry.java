package dev.hourglass.patterns;

import dev.hourglass.queue.TimerHandle;

/**
 * One mapping of an {@link ExpiringMap}: its key, its value and when it expires. The value never
 * changes (a put makes a new entry), so a reader that sees an entry live sees its own value.
 *
 * <p>Complexity: O(1). Ordering: not applicable.
 *
 * <p>Thread-safety: {@link #expiresAt} may be read from any thread and is written under the map's
 * lock; {@link #handle} is read and written under the map's lock only.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class ExpiringEntry<K, V> {

    final K key;
    final V value;

    /** The clock reading at which the entry stops being visible; a refresh moves it. */
    volatile long expiresAt;

    /** Its place in the map's index of expiry times; null for an entry that never entered it. */
    TimerHandle<ExpiringEntry<K, V>> handle;

    ExpiringEntry(K key, V value, long expiresAt) {
        this.key = key;
        this.value = value;
        this.expiresAt = expiresAt;
    }

    /** Tells whether the entry is still visible at {@code now}: expiry is at, not after, the instant. */
    boolean isLiveAt(long now) {
        return now - expiresAt < 0;
    }
}
