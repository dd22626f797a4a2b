package dev.hourglass.patterns;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiConsumer;

/**
 * A map whose keys expire like Redis keys: each entry is put with a time to live (TTL), after which
 * it is gone. Made by {@link #builder(Timer, NanoClock)}; {@link #asMap()} shows it as a {@link
 * ConcurrentMap}.
 *
 * <p>Expiry is both passive and active, as in Redis. Passive: every read compares the clock with
 * the entry's expiry time, so {@link #get}, {@link #containsKey}, {@link #ttl} and every read of
 * {@link #asMap()} never return an expired entry, even before the timer has fired; a read that finds
 * one removes it. Active: the timer purges expired entries nobody reads, at most {@code
 * maxExpiriesPerPass} per pass, and schedules the next pass at once while more are due, so a million
 * keys expiring together never hold the timer's thread for long. Either way the expiry listener
 * hears of each expired entry exactly once. An entry expires at its expiry instant: a read at {@code
 * putTime + ttl} finds it gone, a read one nanosecond earlier finds it. The timer hears of it at
 * most one tick (the builder's {@code tick}) after that instant, plus the timer's own lateness, as
 * long as the passes keep up; while more entries fall due than passes handle (entries that move
 * down the wheel count against a pass's limit too), the notices come later.
 *
 * <p>Design: the keys are spread by hash over a fixed number of stripes, each a hash table with its
 * own lock and its own hierarchical timing wheel of expiry times; one node per entry is both the
 * table's entry and the wheel's, so filing, moving and removing an expiry time are O(1) and
 * allocate nothing, and a put of a live key allocates nothing at all. Reads take no lock. Extending
 * an entry's life leaves its node where it is in the wheel, to be filed again when the wheel
 * reaches it; shortening it moves the node at once. One timeout per map, not per entry, stays armed
 * on the timer at the earliest time a sweep has work: a put sends the timer nothing unless it
 * brings that time forward, and bounded passes are a polling limit.
 *
 * <p>TTLs: zero or less means the entry expires the moment it is put: it is never visible, and the
 * listener hears of it at once, on the calling thread. A TTL longer than {@link
 * Timer#MAX_DELAY_NANOS} (about 146 years) saturates to it, as the timer's delays do, which in
 * practice never expires.
 *
 * <p>Complexity: get, containsKey and ttl are one hash lookup and one clock reading, without a lock;
 * put, putIfAbsent, refresh and remove are O(1) expected under one stripe's lock; size is O(stripes
 * + k) for the k entries it purges; a timer pass is O(stripes + m) for the m entries it handles.
 *
 * <p>Ordering: operations on one key are linearizable. The listener runs outside every lock, after
 * the entry left the map, so a listener may see an expiry after a later put of the same key has
 * returned. An exception from the listener reaches whoever found the expiry (the caller, or the
 * timer's exception handler) once the map is consistent and every other entry of the batch has been
 * reported.
 *
 * <p>Thread-safety: every method may be called from any thread, and from the listener.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class ExpiringMap<K, V> implements AutoCloseable {

    private static final Duration MAX_TTL = Duration.ofNanos(Timer.MAX_DELAY_NANOS);

    private final NanoClock clock;
    private final long defaultTtlNanos;
    private final ExpirySegment<K, V>[] segments;
    private final ExpiryNotices<K, V> notices;
    private final ExpirySweeper<K, V> sweeper;
    private final ExpiringMapView<K, V> view;

    @SuppressWarnings("unchecked")
    ExpiringMap(
            Timer timer,
            NanoClock clock,
            BiConsumer<? super K, ? super V> listener,
            int maxExpiriesPerPass,
            long tickNanos,
            long defaultTtlNanos) {
        this.clock = clock;
        this.defaultTtlNanos = defaultTtlNanos;
        long origin = clock.nanoTime();
        this.segments = (ExpirySegment<K, V>[]) new ExpirySegment<?, ?>[stripes()];
        for (int i = 0; i < segments.length; i++) {
            segments[i] = new ExpirySegment<>(origin, tickNanos);
        }
        this.notices = new ExpiryNotices<>(listener);
        // A pass's list is sized for a full pass up to the default bound, so a busy pass does not
        // regrow it.
        int passListCapacity = Math.min(maxExpiriesPerPass, ExpiringMapBuilder.DEFAULT_MAX_EXPIRIES_PER_PASS);
        this.sweeper = new ExpirySweeper<>(timer, clock, segments, maxExpiriesPerPass, passListCapacity, notices);
        this.view = new ExpiringMapView<>(this);
    }

    /**
     * Starts building a map on {@code timer}, which purges expired entries, and {@code clock}, the
     * timer's own clock, which every read compares expiry times with.
     *
     * @param timer the timer that runs the expiry passes
     * @param clock the timer's clock
     * @param <K> the key type
     * @param <V> the value type
     * @return a builder with the defaults
     * @throws NullPointerException if {@code timer} or {@code clock} is null
     */
    public static <K, V> ExpiringMapBuilder<K, V> builder(Timer timer, NanoClock clock) {
        return new ExpiringMapBuilder<>(timer, clock);
    }

    /**
     * Returns this map as a {@link ConcurrentMap}, a view that reads and writes this map. Expired
     * entries are invisible to it as to every other read. It writes with the builder's {@code
     * defaultTtl}; {@link ConcurrentMap#replace replace} and {@link java.util.Map.Entry#setValue
     * setValue} keep the entry's expiry time. Its iterators are weakly consistent, and skip entries
     * that expire while they run. Null keys and values are refused with {@link
     * NullPointerException}, as by {@link java.util.concurrent.ConcurrentHashMap}. Every call of a
     * closed map's view throws {@link IllegalStateException}.
     *
     * @return the view, the same one at every call
     */
    public ConcurrentMap<K, V> asMap() {
        return view;
    }

    /**
     * Maps {@code key} to {@code value} for {@code ttl}, replacing any entry of the key.
     *
     * @param key the key, not null
     * @param value the value, not null
     * @param ttl how long the entry lives, zero or less expires it at once
     * @return the value the key had while live, or null (an expired one is reported to the listener
     *     instead)
     * @throws NullPointerException if an argument is null
     * @throws IllegalStateException if the map or its timer is closed
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    public V put(K key, V value, Duration ttl) {
        return put(key, value, ttlNanos(ttl), false);
    }

    /**
     * Maps {@code key} to {@code value} for {@code ttl} unless the key has a live entry.
     *
     * @param key the key, not null
     * @param value the value, not null
     * @param ttl how long the entry lives, zero or less expires it at once
     * @return the live value that kept its place, or null if {@code value} was put
     * @throws NullPointerException if an argument is null
     * @throws IllegalStateException if the map or its timer is closed
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    public V putIfAbsent(K key, V value, Duration ttl) {
        return put(key, value, ttlNanos(ttl), true);
    }

    /**
     * Returns the value of {@code key} if its entry is live; an expired entry is removed and
     * reported to the listener, on this thread.
     *
     * @param key the key, not null
     * @return the live value, or null
     * @throws NullPointerException if {@code key} is null
     * @throws IllegalStateException if the map is closed
     */
    public V get(K key) {
        ExpiryNode<K, V> node = liveNode(key, clock.nanoTime());
        return node == null ? null : node.value();
    }

    /**
     * Tells whether {@code key} has a live entry; an expired entry is removed and reported to the
     * listener, on this thread.
     *
     * @param key the key, not null
     * @return true if the key has a live entry
     * @throws NullPointerException if {@code key} is null
     * @throws IllegalStateException if the map is closed
     */
    public boolean containsKey(K key) {
        return liveNode(key, clock.nanoTime()) != null;
    }

    /**
     * Returns the time {@code key} has left to live, like Redis's PTTL; an expired entry is removed
     * and reported to the listener, on this thread.
     *
     * @param key the key, not null
     * @return the remaining time, positive, or empty if the key has no live entry
     * @throws NullPointerException if {@code key} is null
     * @throws IllegalStateException if the map is closed
     */
    public Optional<Duration> ttl(K key) {
        long now = clock.nanoTime();
        ExpiryNode<K, V> node = liveNode(key, now);
        if (node == null) {
            return Optional.empty();
        }
        // A refresh since the check can only have moved the expiry; never report less than 1 ns.
        return Optional.of(Duration.ofNanos(Math.max(1, node.deadline() - now)));
    }

    /**
     * Gives a live entry a new TTL counted from now, longer or shorter, like Redis's EXPIRE. A TTL of
     * zero expires the entry at once and reports it to the listener.
     *
     * @param key the key, not null
     * @param ttl the new time to live; zero or less expires the entry at once
     * @return true if the key had a live entry, which now expires {@code ttl} from now; false if it
     *     had none (an expired one is removed and reported to the listener)
     * @throws NullPointerException if an argument is null
     * @throws IllegalStateException if the map or its timer is closed
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    public boolean refresh(K key, Duration ttl) {
        Objects.requireNonNull(key, "key");
        long ttlNanos = ttlNanos(ttl);
        int hash = ExpirySegment.hash(key);
        ExpirySegment<K, V> segment = segmentFor(hash);
        V expired;
        boolean refreshed;
        segment.lock.lock();
        try {
            checkOpen();
            long now = clock.nanoTime();
            ExpiryNode<K, V> node = segment.findLocked(key, hash);
            if (node == null) {
                return false;
            }
            refreshed = node.isLiveAt(now);
            if (refreshed && ttlNanos > 0) {
                long at = now + ttlNanos;
                sweeper.armFor(segment.wheel.dueTime(at), now);
                segment.wheel.moveDeadline(node, at);
                return true;
            }
            segment.unlink(node, hash);
            expired = node.value();
        } finally {
            segment.lock.unlock();
        }
        notices.expired(key, expired);
        return refreshed;
    }

    /**
     * Removes the entry of {@code key}. An expired one is reported to the listener instead of being
     * returned.
     *
     * @param key the key, not null
     * @return the live value removed, or null
     * @throws NullPointerException if {@code key} is null
     * @throws IllegalStateException if the map is closed
     */
    public V remove(K key) {
        return removeIf(key, null);
    }

    /**
     * Returns the exact number of live entries. To count them it first purges every expired entry
     * the timer has not reached yet, reporting each to the listener on this thread.
     *
     * @return the number of live entries
     * @throws IllegalStateException if the map is closed
     */
    public int size() {
        List<ExpiryNode<K, V>> expired = new ArrayList<>();
        long size = 0;
        for (ExpirySegment<K, V> segment : segments) {
            segment.lock.lock();
            try {
                checkOpen();
                segment.purge(clock.nanoTime(), expired);
                size += segment.count();
            } finally {
                segment.lock.unlock();
            }
        }
        notices.announce(expired);
        return (int) Math.min(Integer.MAX_VALUE, size);
    }

    /**
     * Returns how many entries the map holds, live or expired and not yet purged, without a lock and
     * without purging anything: a cheap reading for monitoring, where {@link #size()} purges first
     * and is exact. Entries stay expired and held until a read finds them or the timer's pass
     * purges them, at most a tick plus the timer's lateness after their expiry (longer when more
     * expire at once than a pass handles).
     *
     * @return the number of entries held, as each stripe last published it
     */
    public long estimatedSize() {
        long held = 0;
        for (ExpirySegment<K, V> segment : segments) {
            held += segment.publishedCount();
        }
        return held;
    }

    /**
     * Returns how many entries have expired since the map was made: each one the expiry listener
     * heard of (an entry put with a TTL of zero or less included; one removed, replaced, cleared or
     * dropped by {@link #close()} not). An expiry a read or a put finds is counted just before the
     * listener hears of it; those a timer pass or {@link #size()} finds are counted together once
     * the listener has heard them all, so a listener that reads this during a pass does not yet see
     * that pass's expiries (other threads' reads may add theirs meanwhile).
     *
     * @return the count
     */
    public long expirations() {
        return notices.count();
    }

    /**
     * Removes every entry without reporting any to the listener.
     *
     * @throws IllegalStateException if the map is closed
     */
    public void clear() {
        checkOpen();
        sweeper.clear();
    }

    /**
     * Removes every entry without reporting any, disarms the timer and refuses every later call
     * with {@link IllegalStateException}. The timer itself stays open. A second call does nothing.
     */
    @Override
    public void close() {
        sweeper.close();
    }

    @Override
    public String toString() {
        return "ExpiringMap[stripes=" + segments.length + ", closed=" + sweeper.isClosed() + "]";
    }

    // ---- what the view builds on ----

    /** The TTL of entries written through {@link #asMap()}. */
    long defaultTtlNanos() {
        return defaultTtlNanos;
    }

    NanoClock clock() {
        return clock;
    }

    ExpirySegment<K, V>[] segments() {
        return segments;
    }

    /**
     * Maps {@code key} to {@code value} for {@code ttlNanos}, or only if the key has no live entry.
     *
     * @return the previous live value, or the one that kept its place
     */
    V put(K key, V value, long ttlNanos, boolean onlyIfAbsent) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        int hash = ExpirySegment.hash(key);
        ExpirySegment<K, V> segment = segmentFor(hash);
        V previous = null;
        V expired = null;
        segment.lock.lock();
        try {
            checkOpen();
            long now = clock.nanoTime();
            ExpiryNode<K, V> node = segment.findLocked(key, hash);
            boolean live = node != null && node.isLiveAt(now);
            if (live && onlyIfAbsent) {
                return node.value();
            }
            if (node != null) {
                if (live) {
                    previous = node.value();
                } else {
                    expired = node.value();
                }
            }
            if (ttlNanos == 0) {
                if (node != null) {
                    segment.unlink(node, hash);
                }
            } else {
                long at = now + ttlNanos;
                // First, as it may throw (a closed timer): then a failed put changes nothing.
                sweeper.armFor(segment.wheel.dueTime(at), now);
                if (node == null) {
                    segment.insert(new ExpiryNode<>(key, value, at), hash);
                } else {
                    node.value(value);
                    segment.wheel.moveDeadline(node, at);
                }
            }
        } finally {
            segment.lock.unlock();
        }
        RuntimeException failure = notices.report(null, key, expired);
        failure = notices.report(failure, key, ttlNanos == 0 ? value : null);
        if (failure != null) {
            throw failure;
        }
        return previous;
    }

    /**
     * Replaces the value of a live entry, keeping its expiry time, if it is {@code expected} (any
     * value when null).
     *
     * @return the value replaced, or null if none was
     */
    V replace(K key, V expected, V value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        int hash = ExpirySegment.hash(key);
        ExpirySegment<K, V> segment = segmentFor(hash);
        V expired;
        segment.lock.lock();
        try {
            checkOpen();
            ExpiryNode<K, V> node = segment.findLocked(key, hash);
            if (node == null) {
                return null;
            }
            if (node.isLiveAt(clock.nanoTime())) {
                V old = node.value();
                if (expected != null && !expected.equals(old)) {
                    return null;
                }
                node.value(value);
                return old;
            }
            segment.unlink(node, hash);
            expired = node.value();
        } finally {
            segment.lock.unlock();
        }
        notices.expired(key, expired);
        return null;
    }

    /**
     * Removes the entry of {@code key} if live and its value is {@code expected} (any value when
     * null); an expired entry is removed and reported.
     *
     * @return the live value removed, or null
     */
    V removeIf(Object key, Object expected) {
        Objects.requireNonNull(key, "key");
        int hash = ExpirySegment.hash(key);
        ExpirySegment<K, V> segment = segmentFor(hash);
        ExpiryNode<K, V> node;
        segment.lock.lock();
        try {
            checkOpen();
            node = segment.findLocked(key, hash);
            if (node == null) {
                return null;
            }
            boolean live = node.isLiveAt(clock.nanoTime());
            if (live && expected != null && !expected.equals(node.value())) {
                return null;
            }
            segment.unlink(node, hash);
            if (live) {
                return node.value();
            }
        } finally {
            segment.lock.unlock();
        }
        notices.expired(node.key, node.value());
        return null;
    }

    /** The node of {@code key} if live at {@code now}; removes and reports an expired one. */
    ExpiryNode<K, V> liveNode(Object key, long now) {
        Objects.requireNonNull(key, "key");
        checkOpen();
        int hash = ExpirySegment.hash(key);
        ExpirySegment<K, V> segment = segmentFor(hash);
        ExpiryNode<K, V> node = segment.find(key, hash);
        if (node == null || node.isLiveAt(now)) {
            return node;
        }
        segment.lock.lock();
        try {
            checkOpen();
            // Look again under the lock: another thread may have purged, replaced or refreshed it.
            node = segment.findLocked(key, hash);
            if (node == null || node.isLiveAt(now)) {
                return node;
            }
            segment.unlink(node, hash);
        } finally {
            segment.lock.unlock();
        }
        notices.expired(node.key, node.value());
        return null;
    }

    void checkOpen() {
        if (sweeper.isClosed()) {
            throw new IllegalStateException("expiring map is closed");
        }
    }

    private ExpirySegment<K, V> segmentFor(int hash) {
        // Fibonacci hashing: the stripe comes from other bits than the table index does.
        return segments[((hash * 0x9E3779B9) >>> 24) & (segments.length - 1)];
    }

    /** Stripes: a power of two, four per processor, at most 64. */
    static int stripes() {
        int wanted = Math.min(64, 4 * Runtime.getRuntime().availableProcessors());
        return Integer.highestOneBit(wanted - 1) << 1;
    }

    /** As for the timer's delays: zero or less expires now, longer than the longest saturates. */
    static long ttlNanos(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative()) {
            return 0;
        }
        return ttl.compareTo(MAX_TTL) >= 0 ? Timer.MAX_DELAY_NANOS : ttl.toNanos();
    }
}
