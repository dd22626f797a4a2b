package dev.hourglass.patterns;

import dev.hourglass.queue.TimerQueue;
import dev.hourglass.queue.TimerQueues;
import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * A map whose keys expire like Redis keys: each entry is put with a time to live (TTL), after which
 * it is gone. Made by {@link #builder(Timer, NanoClock)}.
 *
 * <p>Expiry is both passive and active, as in Redis. Passive: every read compares the clock with
 * the entry's expiry time, so {@link #get}, {@link #containsKey} and {@link #ttl} never return an
 * expired entry, even before the timer has fired; a read that finds one removes it. Active: the
 * timer purges expired entries nobody reads, at most {@code maxExpiriesPerPass} per pass, and
 * schedules the next pass at once while more are due, so a million keys expiring together never
 * hold the timer's thread for long. Either way the expiry listener hears of each expired entry
 * exactly once. An entry expires at its expiry instant: a read at {@code putTime + ttl} finds it
 * gone, a read one nanosecond earlier finds it.
 *
 * <p>Design: one sweeping timeout, not one timeout per entry. The map keeps its own index of expiry
 * times (a 4-ary heap {@link TimerQueue}, exact to the nanosecond) under its lock, and keeps one
 * {@link Timeout} armed at the index's earliest deadline. A put or refresh is then a heap operation
 * under the map's lock and, unless it becomes the earliest deadline, sends the timer nothing; the
 * timer holds one timeout per map whatever the number of keys; and bounded passes are a polling
 * limit. One timeout per entry would cost a timer hand-off per put and make the timer, not the
 * map, decide how much expiry work runs at once.
 *
 * <p>TTLs: zero or less means the entry expires the moment it is put: it is never visible, and the
 * listener hears of it at once, on the calling thread. A TTL longer than {@link
 * Timer#MAX_DELAY_NANOS} (about 146 years) saturates to it, as the timer's delays do, which in
 * practice never expires.
 *
 * <p>Complexity: get, containsKey and ttl of a live entry are one hash lookup and one clock reading,
 * without a lock; put, putIfAbsent, refresh and remove are O(log n) under the map's lock; size is
 * O(k log n) for the k entries it purges; a timer pass is O(m log n) for the m entries it purges.
 *
 * <p>Ordering: operations on one key are linearizable. The listener runs outside the lock, after
 * the entry left the map, so a listener may see an expiry after a later put of the same key has
 * returned; expired entries found by one pass are reported in expiry order. An exception from the
 * listener reaches whoever found the expiry (the caller, or the timer's exception handler) once the
 * map is consistent and every other entry of the batch has been reported.
 *
 * <p>Thread-safety: every method may be called from any thread, and from the listener.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class ExpiringMap<K, V> implements AutoCloseable {

    private final Timer timer;
    private final NanoClock clock;
    private final BiConsumer<? super K, ? super V> listener;
    private final int maxExpiriesPerPass;
    private final Runnable sweep = this::sweep;

    /** Live entries and expired ones not yet purged; changed only under {@link #lock}. */
    private final ConcurrentHashMap<K, ExpiringEntry<K, V>> entries = new ConcurrentHashMap<>();

    private final ReentrantLock lock = new ReentrantLock();

    /** Under the lock: every entry of {@link #entries}, by expiry time. */
    private final TimerQueue<ExpiringEntry<K, V>> index;

    /**
     * Under the lock: the sweeping timeout, pending or about to run; null when none is armed. A
     * running sweep clears it under the lock and arms the next one itself.
     */
    private Timeout sweeper;

    /** Under the lock: the deadline {@link #sweeper} is armed for. */
    private long sweepAt;

    private volatile boolean closed;

    ExpiringMap(Timer timer, NanoClock clock, BiConsumer<? super K, ? super V> listener, int maxExpiriesPerPass) {
        this.timer = timer;
        this.clock = clock;
        this.listener = listener;
        this.maxExpiriesPerPass = maxExpiriesPerPass;
        this.index = TimerQueues.quaternaryHeap(clock.nanoTime());
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
     * Maps {@code key} to {@code value} for {@code ttl}, replacing any entry of the key.
     *
     * @param key the key, not null
     * @param value the value, not null
     * @param ttl how long the entry lives, not negative; zero expires it at once
     * @return the value the key had while live, or null (an expired one is reported to the listener
     *     instead)
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code ttl} is negative
     * @throws IllegalStateException if the map or its timer is closed
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    public V put(K key, V value, Duration ttl) {
        return put(key, value, ttl, false);
    }

    /**
     * Maps {@code key} to {@code value} for {@code ttl} unless the key has a live entry.
     *
     * @param key the key, not null
     * @param value the value, not null
     * @param ttl how long the entry lives, not negative; zero expires it at once
     * @return the live value that kept its place, or null if {@code value} was put
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code ttl} is negative
     * @throws IllegalStateException if the map or its timer is closed
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    public V putIfAbsent(K key, V value, Duration ttl) {
        return put(key, value, ttl, true);
    }

    private V put(K key, V value, Duration ttl, boolean onlyIfAbsent) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        long ttlNanos = ttlNanos(ttl);
        List<ExpiringEntry<K, V>> expired = null;
        V previous = null;
        lock.lock();
        try {
            checkOpen();
            long now = clock.nanoTime();
            ExpiringEntry<K, V> old = entries.get(key);
            if (old != null && old.isLiveAt(now) && onlyIfAbsent) {
                return old.value;
            }
            ExpiringEntry<K, V> entry = new ExpiringEntry<>(key, value, now + ttlNanos);
            if (ttlNanos > 0) {
                // First, as it may throw (a closed timer): then a failed put changes nothing.
                arm(entry.expiresAt, now);
            }
            if (old != null) {
                unlink(old);
                if (old.isLiveAt(now)) {
                    previous = old.value;
                } else {
                    expired = new ArrayList<>(2);
                    expired.add(old);
                }
            }
            if (ttlNanos > 0) {
                entry.handle = index.schedule(entry.expiresAt, entry);
                entries.put(key, entry);
            } else {
                if (expired == null) {
                    expired = new ArrayList<>(1);
                }
                expired.add(entry);
            }
        } finally {
            lock.unlock();
        }
        announce(expired);
        return previous;
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
        ExpiringEntry<K, V> entry = liveEntry(key, clock.nanoTime());
        return entry == null ? null : entry.value;
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
        return liveEntry(key, clock.nanoTime()) != null;
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
        ExpiringEntry<K, V> entry = liveEntry(key, now);
        if (entry == null) {
            return Optional.empty();
        }
        // A refresh since the check can only have moved the expiry; never report less than 1 ns.
        return Optional.of(Duration.ofNanos(Math.max(1, entry.expiresAt - now)));
    }

    /**
     * Gives a live entry a new TTL counted from now, longer or shorter, like Redis's EXPIRE. A TTL of
     * zero expires the entry at once and reports it to the listener.
     *
     * @param key the key, not null
     * @param ttl the new time to live, not negative
     * @return true if the key had a live entry, which now expires {@code ttl} from now; false if it
     *     had none (an expired one is removed and reported to the listener)
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code ttl} is negative
     * @throws IllegalStateException if the map or its timer is closed
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    public boolean refresh(K key, Duration ttl) {
        Objects.requireNonNull(key, "key");
        long ttlNanos = ttlNanos(ttl);
        ExpiringEntry<K, V> expired;
        boolean refreshed;
        lock.lock();
        try {
            checkOpen();
            long now = clock.nanoTime();
            ExpiringEntry<K, V> entry = entries.get(key);
            if (entry == null) {
                return false;
            }
            refreshed = entry.isLiveAt(now);
            if (refreshed && ttlNanos > 0) {
                long at = now + ttlNanos;
                arm(at, now);
                entry.expiresAt = at;
                index.reschedule(entry.handle, at);
                return true;
            }
            unlink(entry);
            expired = entry;
        } finally {
            lock.unlock();
        }
        listener.accept(expired.key, expired.value);
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
        Objects.requireNonNull(key, "key");
        ExpiringEntry<K, V> entry;
        lock.lock();
        try {
            checkOpen();
            entry = entries.get(key);
            if (entry == null) {
                return null;
            }
            unlink(entry);
            if (entry.isLiveAt(clock.nanoTime())) {
                return entry.value;
            }
        } finally {
            lock.unlock();
        }
        listener.accept(entry.key, entry.value);
        return null;
    }

    /**
     * Returns the exact number of live entries. To count them it first purges every expired entry
     * the timer has not reached yet, reporting each to the listener on this thread.
     *
     * @return the number of live entries
     * @throws IllegalStateException if the map is closed
     */
    public int size() {
        List<ExpiringEntry<K, V>> expired = new ArrayList<>();
        int size;
        lock.lock();
        try {
            checkOpen();
            purge(clock.nanoTime(), expired, Integer.MAX_VALUE);
            size = entries.size();
        } finally {
            lock.unlock();
        }
        announce(expired);
        return size;
    }

    /**
     * Removes every entry without reporting any to the listener.
     *
     * @throws IllegalStateException if the map is closed
     */
    public void clear() {
        lock.lock();
        try {
            checkOpen();
            dropAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes every entry without reporting any, disarms the timer and refuses every later call
     * with {@link IllegalStateException}. The timer itself stays open. A second call does nothing.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            dropAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "ExpiringMap[entries=" + entries.size() + ", closed=" + closed + "]";
    }

    /** The entry of {@code key} if live at {@code now}; removes and reports an expired one. */
    private ExpiringEntry<K, V> liveEntry(K key, long now) {
        Objects.requireNonNull(key, "key");
        checkOpen();
        ExpiringEntry<K, V> entry = entries.get(key);
        if (entry == null || entry.isLiveAt(now)) {
            return entry;
        }
        lock.lock();
        try {
            checkOpen();
            // Look again under the lock: another thread may have purged, replaced or refreshed it.
            entry = entries.get(key);
            if (entry == null || entry.isLiveAt(now)) {
                return entry;
            }
            unlink(entry);
        } finally {
            lock.unlock();
        }
        listener.accept(entry.key, entry.value);
        return null;
    }

    /** Under the lock: takes an entry out of the map and the index. */
    private void unlink(ExpiringEntry<K, V> entry) {
        entries.remove(entry.key, entry);
        index.cancel(entry.handle);
    }

    /** Under the lock: removes up to {@code limit} entries expired at {@code now} into {@code out}. */
    private void purge(long now, List<ExpiringEntry<K, V>> out, int limit) {
        index.poll(
                now,
                handle -> {
                    ExpiringEntry<K, V> entry = handle.payload();
                    entries.remove(entry.key, entry);
                    out.add(entry);
                },
                limit);
    }

    /** Under the lock: empties the map and disarms the timer. */
    private void dropAll() {
        index.clear(handle -> {});
        entries.clear();
        if (sweeper != null && sweeper.cancel()) {
            sweeper = null;
        }
    }

    /**
     * Under the lock: makes sure a sweep runs at {@code at} or earlier. A sweep that is running
     * already (its timeout can no longer be moved) arms the next one from the index when it ends.
     */
    private void arm(long at, long now) {
        if (sweeper != null && sweeper.isCancelled()) {
            // Cancelled by the timer's close: scheduling again reports that to the caller.
            sweeper = null;
        }
        long delay = Math.max(0, at - now);
        if (sweeper == null) {
            sweeper = timer.schedule(sweep, delay, TimeUnit.NANOSECONDS);
            sweepAt = at;
        } else if (at - sweepAt < 0 && sweeper.reschedule(delay, TimeUnit.NANOSECONDS)) {
            sweepAt = at;
        }
    }

    /** The timer's task: one bounded pass, then the next pass armed before anyone hears. */
    private void sweep() {
        List<ExpiringEntry<K, V>> expired = new ArrayList<>();
        lock.lock();
        try {
            sweeper = null;
            if (closed) {
                return;
            }
            long now = clock.nanoTime();
            purge(now, expired, maxExpiriesPerPass);
            if (!index.isEmpty()) {
                arm(index.nextDeadline(), now);
            }
        } finally {
            lock.unlock();
        }
        announce(expired);
    }

    /** Reports expired entries; every one is reported even if the listener throws. */
    private void announce(List<ExpiringEntry<K, V>> expired) {
        if (expired == null) {
            return;
        }
        RuntimeException first = null;
        for (ExpiringEntry<K, V> entry : expired) {
            try {
                listener.accept(entry.key, entry.value);
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("expiring map is closed");
        }
    }

    /** As for the timer's delays: zero or less expires now, longer than the longest saturates. */
    private static long ttlNanos(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative()) {
            return 0;
        }
        return ttl.compareTo(Duration.ofNanos(Timer.MAX_DELAY_NANOS)) >= 0 ? Timer.MAX_DELAY_NANOS : ttl.toNanos();
    }
}
