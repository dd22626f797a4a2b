package dev.hourglass.patterns;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Idle detection per key, the heartbeat pattern: {@link #touch} a key on every sign of activity, and
 * {@code onIdle(key)} runs once the key has been silent for the timeout. The key is then no longer
 * watched; a later touch watches it again.
 *
 * <pre>{@code
 * IdleDetector<Connection> idle =
 *         IdleDetector.create(timer, clock, Duration.ofSeconds(10), Connection::close);
 * idle.touch(connection);   // on connect and on every ping
 * idle.remove(connection);  // on a clean disconnect
 * }</pre>
 *
 * <p>Design: a touch only records the clock reading in the key's watch (one volatile read and one
 * CAS, no timer call, no allocation). Each watched key has one timeout on the timer; when it fires it
 * compares the recorded time with the clock and either re-arms itself, allocation-free, for the
 * silence still missing, or reports the key idle. So a key touched ten times per timeout period
 * costs one timer operation per period, not ten. Chosen by measurement ({@code
 * docs/idle-detection.md}, a million keys, preliminary): CPU per touch 0.65 µs and no allocation,
 * against 0.96 µs for a {@link Timeout#reschedule} per touch and 1.36 µs plus 1.09 µs on the
 * worker thread and 62 bytes of garbage for Netty's HashedWheelTimer (cancel and a new timeout per
 * touch). The price is one check per key per timeout period on the timer's thread. A single shared
 * timeout over a list in touch order (libev's way) would hold fewer bytes per key, but every touch
 * would take one lock to move its key to the tail.
 *
 * <p>Timing: {@code onIdle(key)} never runs before the key has been silent for the timeout, as
 * measured by the clock between the latest recorded touch and the firing; it runs as soon as the
 * timer fires a task due then (at most one tick late on a wheel). A touch measures from the clock
 * reading it takes when called.
 *
 * <p>Races, precisely: the idle decision is one atomic step on the key's watch. A touch that returns
 * before that step is seen by it, so the key is not reported idle until it has been silent for the
 * timeout since that touch. A touch that races with the decision is ordered either before it (and
 * keeps the key watched) or after it (onIdle runs and the touch watches the key again, so it is
 * watched when the touch returns). A key is never silently dropped: it leaves only through onIdle,
 * {@link #remove} or {@link #close}. A remove racing with the decision either wins (returns true, no
 * callback) or loses (returns false, the callback runs). onIdle runs at most once per watch, with
 * the key already gone from {@link #contains}, so it may {@link #touch} the key to keep it.
 *
 * <p>Footprint: per watched key a small watch object (32 bytes with compressed pointers), one timeout
 * and its queue entry on the timer, and a map entry. Touching a watched key allocates nothing.
 *
 * <p>Complexity: touch, remove and contains are O(1) expected (a hash lookup) plus, for a new key,
 * one schedule on the timer; a firing is O(1) plus the timer's reschedule or cancel; close is O(n).
 *
 * <p>Ordering: callbacks for different keys run in the timer's order of their deadlines; touches of
 * one key take effect in the order of their clock readings.
 *
 * <p>Thread-safety: every method may be called from any thread, including from onIdle; onIdle runs
 * on the timer's thread (or its executor), and an exception it throws goes to the timer's exception
 * handler. Close the detector before its timer: once the timer is closed no key is reported.
 *
 * @param <K> the key type, with {@code equals} and {@code hashCode} as for a hash map key
 */
public final class IdleDetector<K> implements AutoCloseable {

    private final Timer timer;
    final NanoClock clock;
    private final Duration timeout;
    final long timeoutNanos;
    private final Consumer<? super K> onIdle;
    private final ConcurrentHashMap<K, IdleWatch<K>> watches = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** Keys found idle: counted where onIdle is called (the timer's thread or its executor's). */
    private final LongAdder detected = new LongAdder();

    private IdleDetector(Timer timer, NanoClock clock, Duration timeout, Consumer<? super K> onIdle) {
        this.timer = timer;
        this.clock = clock;
        this.timeout = timeout;
        this.timeoutNanos = timeout.compareTo(Duration.ofNanos(Timer.MAX_DELAY_NANOS)) > 0
                ? Timer.MAX_DELAY_NANOS
                : timeout.toNanos();
        this.onIdle = onIdle;
    }

    /**
     * Creates a detector that reports keys silent for {@code timeout}.
     *
     * @param timer the timer that drives it; close the detector before the timer
     * @param clock the timer's clock, which also dates the touches
     * @param timeout the silence after which a key is idle, positive; longer than about 146 years
     *     saturates as the timer's delays do
     * @param onIdle called once with each key found idle, on the timer's thread or its executor
     * @param <K> the key type
     * @return a new detector watching no key
     * @throws NullPointerException if an argument is null, naming it
     * @throws IllegalArgumentException if {@code timeout} is zero or negative
     */
    public static <K> IdleDetector<K> create(
            Timer timer, NanoClock clock, Duration timeout, Consumer<? super K> onIdle) {
        Objects.requireNonNull(timer, "timer");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(onIdle, "onIdle");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return new IdleDetector<>(timer, clock, timeout, onIdle);
    }

    /**
     * Records activity of {@code key}: starts watching it if it is not watched, otherwise restarts
     * its silence. Touching a watched key allocates nothing and makes no timer call.
     *
     * @param key the key, not null
     * @throws NullPointerException if {@code key} is null
     * @throws IllegalStateException if the detector is closed (also when a close races with this
     *     touch and the key would otherwise stay watched after it)
     * @throws java.util.concurrent.RejectedExecutionException if a new key cannot be scheduled
     *     because the timer's pending limit is reached; the key is then not watched
     */
    public void touch(K key) {
        Objects.requireNonNull(key, "key");
        ensureOpen();
        long now = clock.nanoTime();
        if (now == IdleWatch.DEAD) {
            now++; // 1 ns later: never earlier than the truth
        }
        for (; ; ) {
            IdleWatch<K> watch = watches.get(key);
            if (watch == null) {
                IdleWatch<K> fresh = new IdleWatch<>(key, this, now);
                watch = watches.putIfAbsent(key, fresh);
                if (watch == null) {
                    arm(fresh);
                    return;
                }
            }
            if (watch.touch(now)) {
                return;
            }
            // Its watch just ended (idle, removed or closed): take it out and watch the key anew.
            watches.remove(key, watch);
            ensureOpen();
        }
    }

    /** Schedules the timeout of a watch just put into the map. */
    private void arm(IdleWatch<K> fresh) {
        Timeout scheduled;
        try {
            scheduled = timer.scheduleAtFixedRate(fresh, timeoutNanos, timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
            end(fresh);
            throw e;
        }
        fresh.armedWith(scheduled);
        // Read after the put: a close that began before it may have missed the new watch.
        if (closed) {
            end(fresh);
            throw closedException();
        }
    }

    /**
     * Stops watching {@code key}, without calling onIdle for it.
     *
     * @param key the key, not null
     * @return true if the key was watched and this call ended it; false if it was not watched, or if
     *     its idle decision came first (then onIdle runs for it)
     * @throws NullPointerException if {@code key} is null
     */
    public boolean remove(K key) {
        Objects.requireNonNull(key, "key");
        for (; ; ) {
            IdleWatch<K> watch = watches.get(key);
            if (watch == null) {
                return false;
            }
            boolean ended = watch.kill();
            watches.remove(key, watch);
            if (ended) {
                return true;
            }
        }
    }

    /**
     * Tells whether {@code key} is watched right now.
     *
     * @param key the key, not null
     * @return true if it is watched: touched, and since then neither found idle nor removed
     * @throws NullPointerException if {@code key} is null
     */
    public boolean contains(K key) {
        Objects.requireNonNull(key, "key");
        IdleWatch<K> watch = watches.get(key);
        return watch != null && watch.isLive();
    }

    /**
     * Returns the number of keys watched; while other threads touch and remove it is an estimate.
     *
     * @return the number of watched keys
     */
    public int size() {
        return watches.size();
    }

    /**
     * Returns how many times a key was found idle since the detector was made: the calls of onIdle
     * (a key found idle, touched again and found idle again counts twice).
     *
     * @return the count
     */
    public long detected() {
        return detected.sum();
    }

    /**
     * Returns the silence after which a key is idle.
     *
     * @return the timeout given to {@link #create}
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Stops watching every key and cancels their timeouts; no onIdle starts for a key whose idle
     * decision had not been made when this call ended its watch. Later touches throw {@link
     * IllegalStateException}; remove and contains answer false. Calling it again does nothing. The
     * timer stays open.
     */
    @Override
    public void close() {
        closed = true;
        for (IdleWatch<K> watch : watches.values()) {
            end(watch);
        }
    }

    /** Called by a watch that decided its key is idle. */
    void idle(IdleWatch<K> watch) {
        watches.remove(watch.key, watch);
        detected.increment();
        onIdle.accept(watch.key);
    }

    private void end(IdleWatch<K> watch) {
        watch.kill();
        watches.remove(watch.key, watch);
    }

    private void ensureOpen() {
        if (closed) {
            throw closedException();
        }
    }

    private IllegalStateException closedException() {
        return new IllegalStateException("idle detector is closed");
    }

    @Override
    public String toString() {
        return "IdleDetector[timeout=" + timeout + ", watched=" + watches.size() + (closed ? ", closed" : "") + "]";
    }
}
