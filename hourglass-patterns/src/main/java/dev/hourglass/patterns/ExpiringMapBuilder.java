package dev.hourglass.patterns;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Chooses how an {@link ExpiringMap} is built: who hears of expired entries, how many entries one
 * timer-driven pass may handle, the tick of its expiry wheels and the TTL of entries written
 * through {@link ExpiringMap#asMap()}. Made by {@link ExpiringMap#builder(Timer, NanoClock)}.
 *
 * <p>Defaults: no expiry listener, at most {@value #DEFAULT_MAX_EXPIRIES_PER_PASS} entries per pass,
 * a tick of ten milliseconds, and a default TTL of {@link Timer#MAX_DELAY_NANOS} nanoseconds (about 146
 * years: in practice, never).
 *
 * <p>Complexity: O(1) per setting. Ordering: not applicable.
 *
 * <p>Thread-safety: none; configure on one thread, then build.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class ExpiringMapBuilder<K, V> {

    /** How many expired entries one pass of the timer purges unless told otherwise. */
    public static final int DEFAULT_MAX_EXPIRIES_PER_PASS = 1024;

    /**
     * The tick of the expiry wheels unless told otherwise: at most a hundred passes a second while
     * entries expire, so that each pass's fixed cost (a timer wake-up) is shared by many entries.
     */
    public static final Duration DEFAULT_TICK = Duration.ofMillis(10);

    private final Timer timer;
    private final NanoClock clock;
    private BiConsumer<? super K, ? super V> expiryListener = (key, value) -> {};
    private int maxExpiriesPerPass = DEFAULT_MAX_EXPIRIES_PER_PASS;
    private long tickNanos = DEFAULT_TICK.toNanos();
    private long defaultTtlNanos = Timer.MAX_DELAY_NANOS;

    ExpiringMapBuilder(Timer timer, NanoClock clock) {
        this.timer = Objects.requireNonNull(timer, "timer");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Chooses who hears of each expired entry, exactly once per entry, whether a read or the timer
     * found it expired. It is called after the entry left the map and outside the map's lock, on
     * the thread that found it: the reading thread, or the thread the timer runs its tasks on. It
     * may call the map. An entry that is removed, replaced or cleared is not reported.
     *
     * @param expiryListener receives the key and value of each expired entry
     * @return this builder
     * @throws NullPointerException if {@code expiryListener} is null
     */
    public ExpiringMapBuilder<K, V> expiryListener(BiConsumer<? super K, ? super V> expiryListener) {
        this.expiryListener = Objects.requireNonNull(expiryListener, "expiryListener");
        return this;
    }

    /**
     * Bounds the work of one timer-driven pass: it handles at most this many entries (purging an
     * expired one, or moving one down the expiry wheel nearer its deadline), then schedules another
     * pass at once for the rest, so that many keys expiring together never hold the timer's thread
     * for long.
     *
     * @param maxExpiriesPerPass at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code maxExpiriesPerPass} is less than 1
     */
    public ExpiringMapBuilder<K, V> maxExpiriesPerPass(int maxExpiriesPerPass) {
        if (maxExpiriesPerPass < 1) {
            throw new IllegalArgumentException("maxExpiriesPerPass must be at least 1: " + maxExpiriesPerPass);
        }
        this.maxExpiriesPerPass = maxExpiriesPerPass;
        return this;
    }

    /**
     * Chooses the tick of the map's expiry wheels: the timer hears of an expired entry at most one
     * tick after its expiry instant (plus the timer's own lateness), and a pass runs at most once
     * per tick while entries expire. Reads are exact whatever the tick.
     *
     * @param tick positive
     * @return this builder
     * @throws NullPointerException if {@code tick} is null
     * @throws IllegalArgumentException if {@code tick} is not positive or longer than {@code
     *     Long.MAX_VALUE} nanoseconds
     */
    public ExpiringMapBuilder<K, V> tick(Duration tick) {
        Objects.requireNonNull(tick, "tick");
        if (tick.isNegative() || tick.isZero() || tick.compareTo(Duration.ofNanos(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("tick must be positive and at most Long.MAX_VALUE ns: " + tick);
        }
        this.tickNanos = tick.toNanos();
        return this;
    }

    /**
     * Chooses the TTL of entries written through {@link ExpiringMap#asMap()} ({@code put}, {@code
     * putIfAbsent} and the compound operations built on them). A TTL longer than {@link
     * Timer#MAX_DELAY_NANOS} nanoseconds saturates to it.
     *
     * @param defaultTtl positive
     * @return this builder
     * @throws NullPointerException if {@code defaultTtl} is null
     * @throws IllegalArgumentException if {@code defaultTtl} is not positive
     */
    public ExpiringMapBuilder<K, V> defaultTtl(Duration defaultTtl) {
        Objects.requireNonNull(defaultTtl, "defaultTtl");
        if (defaultTtl.isNegative() || defaultTtl.isZero()) {
            throw new IllegalArgumentException("defaultTtl must be positive: " + defaultTtl);
        }
        this.defaultTtlNanos = ExpiringMap.ttlNanos(defaultTtl);
        return this;
    }

    /**
     * Builds an empty map. It schedules nothing on the timer until the first entry is put.
     *
     * @return the new map
     */
    public ExpiringMap<K, V> build() {
        return new ExpiringMap<>(timer, clock, expiryListener, maxExpiriesPerPass, tickNanos, defaultTtlNanos);
    }
}
