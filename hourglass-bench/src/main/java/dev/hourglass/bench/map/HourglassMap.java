package dev.hourglass.bench.map;

import dev.hourglass.patterns.ExpiringMap;
import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Hourglass's {@link ExpiringMap} on a timer thread with the default structure and pass limit and
 * a given tick; the expiry listener runs on the timer thread.
 *
 * <p>Complexity: the map's. Ordering: n/a. Thread-safety: safe from any thread.
 */
final class HourglassMap implements MapUnderTest {

    private final CapturingThreads threads = new CapturingThreads("hourglass-map-timer");
    private final Timer timer;
    private final ExpiringMap<Integer, Object> map;

    HourglassMap(IntConsumer onExpiry, Duration tick) {
        NanoClock clock = NanoClock.system();
        timer = Timers.builder().clock(clock).threadFactory(threads).startTimerThread();
        map = ExpiringMap.<Integer, Object>builder(timer, clock)
                .tick(tick)
                .expiryListener((key, value) -> onExpiry.accept(key))
                .build();
    }

    @Override
    public Object put(Integer key, Object value, long ttlNanos) {
        return map.put(key, value, Duration.ofNanos(ttlNanos));
    }

    @Override
    public Object get(Integer key) {
        return map.get(key);
    }

    @Override
    public void settle() {}

    @Override
    public List<Thread> workers() {
        return threads.threads();
    }

    @Override
    public void close() {
        map.close();
        timer.close();
    }
}
