package dev.hourglass.bench.map;

import dev.hourglass.patterns.ExpiringMapBuilder;
import java.time.Duration;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * An expiring map under measurement, keyed by {@link Integer}, every entry put with its own TTL.
 *
 * <p>Complexity: that of the map. Ordering: n/a. Thread-safety: as the map, safe from any thread.
 */
interface MapUnderTest extends AutoCloseable {

    /**
     * The names {@link #open} knows, in report order: Hourglass with its default tick, Caffeine,
     * and Hourglass with a one-second tick, which notices expiries about as late as Caffeine does
     * and so wakes about as rarely.
     */
    List<String> IMPLS = List.of("HOURGLASS", "CAFFEINE", "HOURGLASS_1S_TICK");

    /**
     * Opens a map on the system clock, with threads that {@link #workers()} lists.
     *
     * @param impl one of {@link #IMPLS}
     * @param onExpiry hears the key of each entry the map reports expired
     * @return the map
     * @throws IllegalArgumentException if {@code impl} is unknown
     */
    static MapUnderTest open(String impl, IntConsumer onExpiry) {
        switch (impl) {
            case "HOURGLASS":
                return new HourglassMap(onExpiry, ExpiringMapBuilder.DEFAULT_TICK);
            case "HOURGLASS_1S_TICK":
                return new HourglassMap(onExpiry, Duration.ofSeconds(1));
            case "CAFFEINE":
                return new CaffeineMap(onExpiry);
            default:
                throw new IllegalArgumentException("impl must be one of " + IMPLS + ": " + impl);
        }
    }

    /**
     * Maps {@code key} to {@code value} for {@code ttlNanos}.
     *
     * @param key the key
     * @param value the value
     * @param ttlNanos the time to live, positive
     * @return the previous value, or null
     */
    Object put(Integer key, Object value, long ttlNanos);

    /**
     * Returns the live value of {@code key}, or null.
     *
     * @param key the key
     * @return the value
     */
    Object get(Integer key);

    /** Lets the map finish the work its writes handed to other threads or buffers. */
    void settle();

    /**
     * Returns the map's own threads, whose CPU time counts as its work.
     *
     * @return the threads started so far
     */
    List<Thread> workers();

    @Override
    void close();
}
