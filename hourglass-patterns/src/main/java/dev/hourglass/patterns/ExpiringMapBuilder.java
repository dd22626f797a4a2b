package dev.hourglass.patterns;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Chooses how an {@link ExpiringMap} is built: who hears of expired entries and how many entries
 * one timer-driven pass may purge. Made by {@link ExpiringMap#builder(Timer, NanoClock)}.
 *
 * <p>Defaults: no expiry listener, at most {@value #DEFAULT_MAX_EXPIRIES_PER_PASS} expiries per pass.
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

    private final Timer timer;
    private final NanoClock clock;
    private BiConsumer<? super K, ? super V> expiryListener = (key, value) -> {};
    private int maxExpiriesPerPass = DEFAULT_MAX_EXPIRIES_PER_PASS;

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
     * Bounds the work of one timer-driven pass: it purges at most this many expired entries, then
     * schedules another pass at once for the rest, so that many keys expiring together never hold
     * the timer's thread for long.
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
     * Builds an empty map. It schedules nothing on the timer until the first entry is put.
     *
     * @return the new map
     */
    public ExpiringMap<K, V> build() {
        return new ExpiringMap<>(timer, clock, expiryListener, maxExpiriesPerPass);
    }
}
