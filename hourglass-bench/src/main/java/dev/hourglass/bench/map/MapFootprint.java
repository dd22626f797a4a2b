package dev.hourglass.bench.map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hourglass.loop.EventLoop;
import dev.hourglass.patterns.ExpiringMap;
import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * Measures the bytes each expiring map holds per entry, with JOL's {@code GraphLayout} (exact, as
 * {@link dev.hourglass.bench.footprint.Footprint} does for fixed sizes): the whole object graph of
 * a map holding N live entries, less the N keys (one {@link Integer} each, which every map must
 * hold) and the one shared value, divided by N. The fixed parts (stripes, wheels, buffers) are
 * included, spread over the N entries. The maps are built without threads of their own (Hourglass's
 * on an event loop that is never run, Caffeine with a same-thread executor and no scheduler), so
 * that the graph holds the map alone.
 *
 * <p>Complexity: O(N). Ordering: Hourglass, then Caffeine.
 * Thread-safety: run it from one thread.
 */
public final class MapFootprint {

    static {
        // The maps hold lambdas, hidden classes whose field offsets JOL reads only this way.
        System.setProperty("jol.magicFieldOffset", "true");
    }

    private static final Object VALUE = new Object();
    private static final long TTL_NANOS = TimeUnit.HOURS.toNanos(1);

    private MapFootprint() {}

    /**
     * Prints "impl N bytes-per-entry" lines on standard output.
     *
     * @param args {@code [N...]}: entry counts, 10,000 and 1,000,000 by default
     */
    public static void main(String[] args) {
        List<String> sizes = args.length > 0 ? List.of(args) : List.of("10000", "1000000");
        for (String size : sizes) {
            int n = Integer.parseInt(size);
            for (String impl : List.of("HOURGLASS", "CAFFEINE")) {
                System.out.printf("%s %d %.1f%n", impl, n, bytesPerEntry(impl, n));
                System.out.flush();
            }
        }
    }

    /**
     * Returns the bytes {@code impl} holds per entry with {@code n} live entries.
     *
     * @param impl {@code HOURGLASS} or {@code CAFFEINE}
     * @param n the number of entries, positive
     * @return bytes per entry, fixed parts included, keys and the shared value excluded
     * @throws IllegalArgumentException if {@code impl} is unknown or {@code n} is not positive
     */
    public static double bytesPerEntry(String impl, int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be positive: " + n);
        }
        Integer[] keys = new Integer[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i;
        }
        long total;
        switch (impl) {
            case "HOURGLASS":
                total = hourglass(keys);
                break;
            case "CAFFEINE":
                total = caffeine(keys);
                break;
            default:
                throw new IllegalArgumentException("impl must be HOURGLASS or CAFFEINE: " + impl);
        }
        long keysAndValue = n * VM.current().sizeOf(keys[0]) + VM.current().sizeOf(VALUE);
        return (double) (total - keysAndValue) / n;
    }

    private static long hourglass(Integer[] keys) {
        NanoClock clock = NanoClock.system();
        EventLoop loop = EventLoop.open(Timers.builder().clock(clock));
        try {
            ExpiringMap<Integer, Object> map =
                    ExpiringMap.<Integer, Object>builder(loop, clock).build();
            for (Integer key : keys) {
                map.put(key, VALUE, Duration.ofNanos(TTL_NANOS));
            }
            long size = GraphLayout.parseInstance(map).totalSize();
            map.close();
            return size;
        } finally {
            loop.close();
        }
    }

    private static long caffeine(Integer[] keys) {
        Cache<Integer, Object> cache = Caffeine.newBuilder()
                .executor(Runnable::run)
                .expireAfter(new CaffeineMap.FixedExpiry())
                .build();
        for (Integer key : keys) {
            cache.policy().expireVariably().orElseThrow().put(key, VALUE, TTL_NANOS, TimeUnit.NANOSECONDS);
        }
        cache.cleanUp();
        return GraphLayout.parseInstance(cache).totalSize();
    }
}
